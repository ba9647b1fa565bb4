import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type OpenApiDocument, parameterProbes, requestsFor, type Route, routesOf } from "../support/openapi-requests.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment } from "../support/webhook-receiver.ts";

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
    let client: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      // Slow processor answers must not turn into 504s: this test looks for 5xx of our own.
      // The requests are generated in this process, between the service's own work: its event loop
      // is busy with the generator, not overloaded, so the delay bound is off.
      api = await startTestService(target, {
        PROCESSOR_TIMEOUT_MS: "10000",
        RATE_LIMIT_PER_MINUTE: "1000000",
        MAX_EVENT_LOOP_DELAY_MS: "0",
        // An endpoint on a closed loopback port: its deliveries fail, so it has attempts to list.
        ...loopbackWebhookEnvironment(),
      });
      client = await api.createClient("Fuzzed");
      // Two of everything that lists, so that every list gives out a cursor.
      await api.createClient("Fuzzed too");
      await api.request("POST", `/v1/clients/${client.clientId}/api-keys`, { body: {} });
      const endpoints = await Promise.all(
        [1, 2].map(() => api.request("POST", "/v1/webhook-endpoints", { key: client.key, body: { url: "http://127.0.0.1:9/hooks", events: ["*"] } })),
      );
      const configurations = await Promise.all(
        processors.map((processor) =>
          api.request("POST", `/v1/host-configurations/${processor}`, { body: { ...validBodies[processor], clientId: client.clientId } }),
        ),
      );
      const [authorization] = await Promise.all(
        [1, 2].map(() =>
          api.request("POST", "/v1/transactions/authorization", {
            key: client.key,
            body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_1", card: approvedCard },
          }),
        ),
      );
      // Two payment methods, one paid with, so that their list pages and their events have something.
      const paymentMethods = await Promise.all(
        [1, 2].map(() =>
          api.request("POST", "/v1/payment-methods", { key: client.key, body: { card: { number: "4242424242424242", expMonth: 12, expYear: 2030 }, userId: "user_1" } }),
        ),
      );
      await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_1", paymentMethodId: paymentMethods[0]!.body.id },
      });
      keys = [TEST_ADMIN_KEY, client.key];
      knownIds = [
        client.clientId,
        client.keyId,
        authorization!.body.id,
        ...configurations.map((created) => created.body.id as string),
        ...endpoints.map((created) => created.body.id as string),
        ...paymentMethods.map((created) => created.body.id as string),
      ];
      document = (await api.request("GET", "/openapi.json")).body;
    });
    afterAll(() => api.stop());

    /** What is wrong with an answer to a probe of `parameter`, if anything. */
    function judge(response: Response, text: string, parameter: { in: string; name: string }): string | undefined {
      if (response.status >= 500) return `answered ${response.status}`;
      if (response.status < 400) return undefined;
      if (!response.headers.get("content-type")?.startsWith("application/problem+json")) return "not problem+json";
      const problem = JSON.parse(text);
      if (problem.status !== response.status || typeof problem.code !== "string") return "not a problem";
      if (problem.code !== "validation_error" || parameter.in !== "query") return undefined;
      // A query parameter's error names it, and says what it must be.
      const named: { message: string }[] = (problem.errors ?? []).filter((error: { path: string }) => error.path === parameter.name);
      if (named.length === 0) return "names no error after the parameter";
      if (named.some((error) => error.message === "Invalid input")) return "does not say what the parameter must be";
      return undefined;
    }

    /** Path parameter values that reach each route's handler: `{id}` is a known id its resource answers 200 for. */
    async function pathValuesOf(route: Route): Promise<Record<string, string>> {
      const resource = route.path.split("{id}")[0];
      if (!route.path.includes("{id}")) return { clientId: client.clientId, keyId: client.keyId };
      for (const id of knownIds) {
        if ((await api.request("GET", `${resource}${id}`)).status === 200) return { id };
      }
      return { id: knownIds[0]! };
    }

    it("answers hostile values of every id, cursor and query parameter of every route with a 2xx or a 4xx that names the parameter", async () => {
      const routes = routesOf(document);
      const lists = routes.filter((route) => route.method === "GET" && (route.operation.parameters ?? []).some((parameter) => parameter.name === "cursor"));
      // Real cursors of every list, each then passed to every list: its own and the others.
      const cursors: string[] = [];
      for (const route of lists) {
        const values = await pathValuesOf(route);
        const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
        const page = await api.request("GET", `${path}?limit=1`);
        if (typeof page.body?.nextCursor === "string") cursors.push(page.body.nextCursor);
      }
      // Clients, a client's keys, transactions, the event log and webhook endpoints at least.
      expect(cursors.length).toBeGreaterThanOrEqual(5);
      // Every answer is judged, and all that fail are reported together.
      const failures: string[] = [];
      let probed = 0;
      for (const route of routes) {
        for (const { parameter, value, request } of parameterProbes(route, await pathValuesOf(route), cursors)) {
          for (const key of keys) {
            const response = await fetch(`${api.url}${request.url}`, {
              method: request.method,
              headers: { ...request.headers, authorization: `Bearer ${key}` },
              body: request.body,
            });
            const text = await response.text();
            const failure = judge(response, text, parameter);
            if (failure) failures.push(`${request.method} ${request.url} (${parameter.in} ${parameter.name} = ${JSON.stringify(value)}): ${failure}: ${text}`);
          }
          probed += 1;
        }
      }
      expect(failures).toEqual([]);
      expect(probed).toBeGreaterThan(1_000);
    }, 300_000);

    // After the probes, which change nothing: these requests may revoke the keys and delete the endpoints they name.
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
