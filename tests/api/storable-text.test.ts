import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type ApiResponse, startTestService, type TestService } from "../support/service.ts";

/** JSON text with escapes that JSON.stringify would never write: a lone surrogate, a NUL. */
const LONE_SURROGATE = "\\ud800";
const NUL = "\\u0000";

function expectRefused(response: ApiResponse, path: string): void {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ code: "validation_error", errors: [expect.objectContaining({ path })] });
}

for (const target of testDatabaseTargets()) {
  describe(`text no store can hold is refused at the edge, on ${target}`, () => {
    let api: TestService;
    let client: Awaited<ReturnType<TestService["createClient"]>>;
    beforeAll(async () => {
      // A slow processor answer must not be what fails the sale below.
      api = await startTestService(target, { PROCESSOR_TIMEOUT_MS: "10000" });
      client = await api.createClient();
    });
    afterAll(() => api.stop());

    for (const [what, escape] of [
      ["a lone surrogate", LONE_SURROGATE],
      ["NUL", NUL],
    ] as const) {
      it(`refuses ${what} in a client's name with 400 naming the field`, async () => {
        const response = await api.request("POST", "/v1/clients", { body: `{"name":"Acme${escape}"}` });
        expectRefused(response, "name");
      });

      it(`refuses ${what} deep in a host configuration`, async () => {
        const body = JSON.stringify({ ...validBodies.processor_a, clientId: client.clientId, customProperties: { region: "north" } });
        const response = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: body.replace('"north"', `"no${escape}rth"`),
        });
        expectRefused(response, "customProperties.region");
      });

      it(`refuses ${what} in a key, naming it`, async () => {
        const body = JSON.stringify({ processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: approvedCard, metadata: { order: "1" } });
        const response = await api.request("POST", "/v1/transactions/sale", {
          key: client.key,
          body: body.replace('"order"', `"or${escape}der"`),
        });
        expectRefused(response, "metadata.or\ufffdder");
      });
    }

    it("refuses NUL in a query string", async () => {
      expectRefused(await api.request("GET", "/v1/transactions?userId=u%00", { key: client.key }), "userId");
      expectRefused(await api.request("GET", "/v1/events?cursor=%00"), "cursor");
      expectRefused(await api.request("GET", "/v1/host-configurations/processor_a?clientId=%00&limit=2"), "clientId");
    });

    it("answers a path with broken percent-encoding as 400 problem+json", async () => {
      const response = await api.request("GET", "/v1/clients/%zz", { headers: { "x-request-id": "bad-url-1" } });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(response.headers.get("x-request-id")).toBe("bad-url-1");
      expect(response.body).toMatchObject({ code: "validation_error", requestId: "bad-url-1" });
    });

    it("stores metadata keys that are JavaScript names, such as toJSON, as the text they are", async () => {
      await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      const metadata = { toJSON: "x", constructor: "y", __defineGetter__: "z" };
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: approvedCard, metadata },
      });
      expect(sale.status, sale.text).toBe(201);
      expect(sale.body.metadata).toEqual(metadata);
      const read = await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: client.key });
      expect(read.body.metadata).toEqual(metadata);
    });

    it("still takes any other text, surrogate pairs included", async () => {
      const name = "Ümlaut \u{1F600} \u2028 ok";
      const created = await api.request("POST", "/v1/clients", { body: { name } });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe(name);
    });
  });
}
