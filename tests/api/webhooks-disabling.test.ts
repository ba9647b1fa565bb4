import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import {
  apiRequest,
  capturedLogs,
  type Json,
  startTestService,
  TEST_ADMIN_KEY,
  testConfig,
  type TestService,
  testSecrets,
} from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, typeOf, verified, type WebhookReceiver } from "../support/webhook-receiver.ts";

// API.md "Webhooks": an endpoint whose every delivery has failed for 3 days, or whose secret can
// no longer be decrypted, is disabled (`enabled: false`, `disabledReason`), once, with a warning
// in the log; enabling it again resumes delivery of what is owed.

const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };
/** The test keys, and a second master key (the active one) that a later start no longer has. */
const RETIRED_KEY = "retired:ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8=";
const withRetiredKey = { SECRETS_MASTER_KEYS: `${testSecrets.SECRETS_MASTER_KEYS},${RETIRED_KEY}` };

/** The log lines (parsed) about the endpoint (the requests' lines name it only in their URL). */
const linesAbout = (lines: string[], endpointId: string) =>
  lines.filter((line) => line.includes(`"endpointId":"${endpointId}"`)).map((line) => JSON.parse(line) as Json);

for (const target of testDatabaseTargets()) {
  describe(`an endpoint whose secret no longer decrypts, on ${target}`, () => {
    let database: TestDatabase;
    let receiver: WebhookReceiver;
    let service: Service | undefined;
    const logs = capturedLogs();

    beforeAll(async () => {
      database = await openTestDatabase(target);
      receiver = await startWebhookReceiver(200);
    });
    afterAll(async () => {
      await service?.stop();
      await database?.close();
      await receiver?.close();
    });

    const start = async (environment: Record<string, string>) => {
      await service?.stop();
      service = await startService(
        testConfig(database.url, {
          PROCESSOR_TIMEOUT_MS: "2000",
          ...loopbackWebhookEnvironment({ retryBaseMs: 20, dispatchIntervalMs: 20 }),
          ...environment,
        }),
        createLogger("info", logs.sink),
        { ...database, close: async () => {} },
      );
    };
    const call = (method: string, path: string, key: string, body?: unknown) => apiRequest(service!.url, method, path, { key, body });

    it("is disabled once, with one warning and no stack, however many passes find it; rotated and enabled, it gets what is owed", async () => {
      // The endpoint's secret is encrypted under a master key that the next start does not have.
      await start(withRetiredKey);
      const client = await call("POST", "/v1/clients", TEST_ADMIN_KEY, { name: "Acme" });
      const key = (await call("POST", `/v1/clients/${client.body.id}/api-keys`, TEST_ADMIN_KEY, {})).body.key as string;
      const configured = await call("POST", "/v1/host-configurations/processor_a", TEST_ADMIN_KEY, { ...validBodies.processor_a, clientId: client.body.id });
      expect(configured.status, configured.text).toBe(201);
      const endpoint = await call("POST", "/v1/webhook-endpoints", key, { url: `${receiver.url}/lost-key`, events: ["transaction.approved"] });
      expect(endpoint.status, endpoint.text).toBe(201);
      expect(endpoint.body).toMatchObject({ enabled: true, disabledReason: null });
      const endpointId = endpoint.body.id as string;

      await start({});
      const sales: string[] = [];
      for (const amount of [101, 102, 103]) {
        const sale = await call("POST", "/v1/transactions/sale", key, { processor: "processor_a", amount, currency: "USD", card, userId: "u1" });
        expect(sale.status, sale.text).toBe(201);
        sales.push(sale.body.id);
      }
      await vi.waitFor(
        async () => expect((await call("GET", `/v1/webhook-endpoints/${endpointId}`, key)).body).toMatchObject({ enabled: false }),
        { timeout: 15_000, interval: 50 },
      );
      // Many dispatch passes later (one every 20 ms), still one line about it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const about = linesAbout(logs.lines, endpointId);
      expect(about, JSON.stringify(about)).toHaveLength(1);
      expect(about[0]).toMatchObject({ level: 40, endpointId, disabledReason: "secret_undecryptable" });
      expect(JSON.stringify(about[0])).not.toContain("stack");
      expect(logs.lines.filter((line) => line.includes('"stack"'))).toEqual([]);
      expect((await call("GET", `/v1/webhook-endpoints/${endpointId}`, key)).body).toMatchObject({
        enabled: false,
        disabledReason: "secret_undecryptable",
      });
      expect(receiver.at("/lost-key")).toEqual([]);
      // Nothing was attempted: every message queued before it was disabled is still owed (those
      // recorded after were never its to receive).
      expect((await call("GET", `/v1/webhook-endpoints/${endpointId}/deliveries`, key)).body.data).toEqual([]);
      const owed = await database.db
        .selectFrom("webhook_deliveries")
        .select(["message_id", "status"])
        .where("endpoint_id", "=", endpointId)
        .execute();
      expect(owed.length).toBeGreaterThanOrEqual(1);
      expect(owed.every((delivery) => delivery.status === "pending")).toBe(true);

      // A new secret, then enabled again: the owed messages arrive, signed with it.
      const rotated = await call("POST", `/v1/webhook-endpoints/${endpointId}/rotate-secret`, key, {});
      expect(rotated.status, rotated.text).toBe(200);
      const enabled = await call("PATCH", `/v1/webhook-endpoints/${endpointId}`, key, { enabled: true });
      expect(enabled.status, enabled.text).toBe(200);
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
      const arrived = await receiver.waitFor((requests) => requests.length >= owed.length, { path: "/lost-key", message: "the owed approvals" });
      expect(arrived.map((request) => verified(request, rotated.body.secret).id).sort()).toEqual(owed.map((delivery) => delivery.message_id).sort());
      for (const request of arrived) {
        expect(typeOf(request)).toBe("transaction.approved");
        expect(sales).toContain(JSON.parse(request.body).data.transaction.id);
      }
      expect((await call("GET", `/v1/webhook-endpoints/${endpointId}`, key)).body).toMatchObject({ enabled: true, disabledReason: null });
      expect(linesAbout(logs.lines, endpointId)).toHaveLength(1);
    }, 60_000);
  });
}

/** Real time plus an offset the test moves forward (the webhook-timestamp is signed on real time). */
function offsetClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (ms: number) => (offsetMs += ms) };
}

const DAY_MS = 24 * 60 * 60 * 1000;

for (const target of testDatabaseTargets()) {
  describe(`an endpoint whose every delivery fails, on ${target}`, () => {
    const clock = offsetClock();
    let receiver: WebhookReceiver;
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      receiver = await startWebhookReceiver((request) => (request.path === "/failing" ? 500 : 200));
      // Retries 200 ms, 400 ms, 800 ms... apart: several within the test, none given up.
      api = await startTestService(target, loopbackWebhookEnvironment({ retryBaseMs: 200, dispatchIntervalMs: 20 }), { now: clock.now });
      acme = await api.createClient("Acme");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(configured.status, configured.text).toBe(201);
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    const endpointAt = async (path: string) => {
      const created = await api.request("POST", "/v1/webhook-endpoints", { key: acme.key, body: { url: `${receiver.url}${path}`, events: ["transaction.approved"] } });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const endpoint = async (id: string) => (await api.request("GET", `/v1/webhook-endpoints/${id}`, { key: acme.key })).body;
    const lines = () => api.logs().split("\n").filter((line) => line !== "");

    it("leaves one warning line while it keeps failing, not one per attempt", async () => {
      const failing = await endpointAt("/failing-briefly");
      receiver.setBehaviour((request) => (request.path === "/failing-briefly" || request.path === "/failing" ? 500 : 200));
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: { processor: "processor_a", amount: 500, currency: "USD", card, userId: "u1" },
      });
      expect(sale.status, sale.text).toBe(201);
      await receiver.waitFor((requests) => requests.length >= 5, { path: "/failing-briefly", timeoutMs: 15_000, message: "five refused attempts" });
      const warnings = linesAbout(lines(), failing);
      expect(warnings, JSON.stringify(warnings)).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, endpointId: failing, clientId: acme.clientId, responseStatus: 500, failuresSinceLastWarning: 1 });
      expect(warnings[0].msg).toMatch(/failing/);
      const deleted = await api.request("DELETE", `/v1/webhook-endpoints/${failing}`, { key: acme.key });
      expect(deleted.status).toBe(204);
    });

    it("leaves one warning in 10 minutes for a flaky endpoint (one answer in five a 500), not one per failure between deliveries", async () => {
      const flaky = await endpointAt("/flaky");
      let flakyRequests = 0;
      receiver.setBehaviour((request) => {
        if (request.path !== "/flaky") return request.path === "/failing" ? 500 : 200;
        flakyRequests += 1;
        return flakyRequests % 5 === 0 ? 500 : 200;
      });
      for (let sale = 0; sale < 16; sale += 1) {
        const sold = await api.request("POST", "/v1/transactions/sale", {
          key: acme.key,
          body: { processor: "processor_a", amount: 100 + sale, currency: "USD", card, userId: "u1" },
        });
        expect(sold.status, sold.text).toBe(201);
      }
      // Three failures, each followed by deliveries: three failure episodes.
      await receiver.waitFor((requests) => requests.length >= 16, { path: "/flaky", timeoutMs: 30_000, message: "sixteen attempts" });
      const warnings = linesAbout(lines(), flaky);
      expect(warnings, JSON.stringify(warnings)).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, endpointId: flaky, responseStatus: 500, failuresSinceLastWarning: 1 });
      const deleted = await api.request("DELETE", `/v1/webhook-endpoints/${flaky}`, { key: acme.key });
      expect(deleted.status).toBe(204);
    });

    it("is disabled once its every attempt has failed for 3 days, with one warning; enabled again, it gets what is owed", async () => {
      const failing = await endpointAt("/failing");
      const healthy = await endpointAt("/healthy");
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: { processor: "processor_a", amount: 700, currency: "USD", card, userId: "u1" },
      });
      expect(sale.status, sale.text).toBe(201);
      await receiver.waitFor((requests) => requests.length >= 2, { path: "/failing", message: "two refused attempts" });
      await receiver.waitFor((requests) => requests.length >= 1, { path: "/healthy" });
      expect(await endpoint(failing)).toMatchObject({ enabled: true, disabledReason: null });

      clock.advance(3 * DAY_MS + 60_000);
      await vi.waitFor(async () => expect(await endpoint(failing)).toMatchObject({ enabled: false, disabledReason: "deliveries_failing" }), {
        timeout: 15_000,
        interval: 50,
      });
      expect(await endpoint(healthy)).toMatchObject({ enabled: true, disabledReason: null });
      const sent = receiver.at("/failing").length;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.at("/failing")).toHaveLength(sent);
      const disabledLines = linesAbout(lines(), failing).filter((line) => line.disabledReason !== undefined);
      expect(disabledLines, JSON.stringify(disabledLines)).toHaveLength(1);
      expect(disabledLines[0]).toMatchObject({ level: 40, disabledReason: "deliveries_failing", clientId: acme.clientId });
      const { data: attempts } = (await api.request("GET", `/v1/webhook-endpoints/${failing}/deliveries?limit=100`, { key: acme.key })).body;
      expect(attempts[0]).toMatchObject({ status: "pending", responseStatus: 500 });

      receiver.setBehaviour(200);
      const enabled = await api.request("PATCH", `/v1/webhook-endpoints/${failing}`, { key: acme.key, body: { enabled: true } });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
      const [approval] = await receiver.waitFor((requests) => requests.some((request) => request.answer === 200), {
        path: "/failing",
        message: "the owed approval",
      }).then((requests) => requests.filter((request) => request.answer === 200));
      expect(JSON.parse(approval!.body)).toMatchObject({ type: "transaction.approved", data: { transaction: { id: sale.body.id } } });
      expect(await endpoint(failing)).toMatchObject({ enabled: true, disabledReason: null });
    }, 60_000);
  });
}
