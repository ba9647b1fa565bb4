import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, type TestService } from "../support/service.ts";

describe("an unexpected failure", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService("pglite");
  });
  afterAll(() => api.stop());

  it("is a 500 internal_error problem with no stack trace or SQL, and is logged", async () => {
    const client = await api.createClient("Doomed");
    await sql`alter table clients rename to clients_gone`.execute(api.database.db);
    const response = await api.request("GET", `/v1/clients/${client.clientId}`);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ code: "internal_error", status: 500, requestId: expect.any(String) });
    expect(response.text).not.toMatch(/clients|relation|select|at .*\.ts/i);
    expect(api.logs()).toContain("request failed");
  });
});

describe("an answer the service chose", () => {
  let api: TestService;
  let saleWithCard: (number: string) => ReturnType<TestService["request"]>;
  beforeAll(async () => {
    api = await startTestService("pglite");
    const client = await api.createClient("Chosen answers");
    const configured = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
    expect(configured.status).toBe(201);
    saleWithCard = (number) =>
      api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: { ...approvedCard, number } },
      });
  });
  afterAll(() => api.stop());

  it("is logged as a warning with its code, not as an error with a stack: a processor's timeout is not the service failing", async () => {
    const sale = await saleWithCard("4000000000000408");
    expect(sale.status).toBe(504);
    const lines = api.logs().split("\n").filter((line) => line.includes("processor_timeout"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes('"level":40') && !line.includes("stack"))).toBe(true);
  });

  it("is the card's answer for a decline, not the service failing: nothing since the service started is an error or a stack", async () => {
    const sale = await saleWithCard("4000000000000002");
    expect(sale.status).toBe(402);
    expect(sale.body.code).toBe("card_declined");
    // The request's own lines ("request completed" is written once the answer is sent), and every
    // other line since this service started (a connector's, say).
    await vi.waitFor(() => expect(api.logs()).toContain(sale.body.requestId), { timeout: 10_000, interval: 50 });
    const lines = api.logs().split("\n").filter((line) => line !== "");
    const errors = lines.filter((line) => z.object({ level: z.number() }).parse(JSON.parse(line)).level >= 50 || line.includes("stack"));
    expect(errors).toEqual([]);
  });
});
