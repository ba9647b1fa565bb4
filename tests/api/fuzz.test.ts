import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type OpenApiDocument, requestsFor, routesOf } from "../support/openapi-requests.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

const SEED = 20_251_123;
const REQUESTS = 1000;

/**
 * Every route, with bodies, query strings and path parameters derived from the app's own OpenAPI
 * document and then mutated, as the admin and as a client: no answer is a 5xx, and every error
 * is problem+json.
 */
for (const target of testDatabaseTargets()) {
  describe(`fuzzing every route on ${target}`, () => {
    let api: TestService;
    let keys: string[];
    let knownIds: string[];
    let document: OpenApiDocument;

    beforeAll(async () => {
      // Slow processor answers must not turn into 504s: this test looks for 5xx of our own.
      // The requests are generated in this process, between the service's own work: its event loop
      // is busy with the generator, not overloaded, so the delay bound is off.
      api = await startTestService(target, { PROCESSOR_TIMEOUT_MS: "10000", RATE_LIMIT_PER_MINUTE: "1000000", MAX_EVENT_LOOP_DELAY_MS: "0" });
      const client = await api.createClient("Fuzzed");
      const configurations = await Promise.all(
        processors.map((processor) =>
          api.request("POST", `/v1/host-configurations/${processor}`, { body: { ...validBodies[processor], clientId: client.clientId } }),
        ),
      );
      const authorization = await api.request("POST", "/v1/transactions/authorization", {
        key: client.key,
        body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_1", card: approvedCard },
      });
      keys = [TEST_ADMIN_KEY, client.key];
      knownIds = [client.clientId, client.keyId, authorization.body.id, ...configurations.map((created) => created.body.id as string)];
      document = (await api.request("GET", "/openapi.json")).body;
    });
    afterAll(() => api.stop());

    it(`answers ${REQUESTS} generated requests, each as the admin and as a client, without a 5xx`, async () => {
      const routes = routesOf(document);
      expect(routes.length).toBeGreaterThan(30);
      await fc.assert(
        fc.asyncProperty(requestsFor(routes, knownIds), async ({ method, url, headers, body }) => {
          for (const key of keys) {
            const response = await fetch(`${api.url}${url}`, { method, headers: { ...headers, authorization: `Bearer ${key}` }, body });
            const text = await response.text();
            expect(response.status, text).toBeLessThan(500);
            if (response.status >= 400) {
              expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
              expect(JSON.parse(text)).toMatchObject({ status: response.status, code: expect.any(String) });
            }
          }
        }),
        { seed: SEED, numRuns: REQUESTS },
      );
    }, 120_000);
  });
}
