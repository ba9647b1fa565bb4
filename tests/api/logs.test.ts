import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type Json, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

// What an operator reads: one line a request (its route, never its URL), and one line for each
// decision the service takes on its own (a batch closed, an expiry, a pending transaction resolved).

/** The simulator holds this card's answer longer than the connector waits, then approves it. */
const heldCard = { ...approvedCard, number: "4000000000000408" };
const TTL_SECONDS = 3_600;
const DAY_MS = 24 * 60 * 60 * 1000;
const eventually = { timeout: 40_000, interval: 50 };

for (const target of testDatabaseTargets()) {
  describe(`the service's log lines, on ${target}`, { timeout: 90_000 }, () => {
    let offsetMs = 0;
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    let hostConfigurationId: string;
    let receiver: WebhookReceiver;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(500);
      api = await startTestService(
        target,
        {
          // Generous, so a busy machine's slow approval is not taken for a timeout; the held card
          // is held far longer, and is resolved by the resolver 2 x this after its intent.
          PROCESSOR_TIMEOUT_MS: "5000",
          PENDING_RESOLVER_INTERVAL_MS: "50",
          LIFECYCLE_CHECK_INTERVAL_MS: "50",
          AUTHORIZATION_TTL_SECONDS: String(TTL_SECONDS),
          ...loopbackWebhookEnvironment({ retryBaseMs: 200, dispatchIntervalMs: 20 }),
        },
        { now: () => new Date(Date.now() + offsetMs) },
      );
      acme = await api.createClient("Acme");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(configured.status, configured.text).toBe(201);
      hostConfigurationId = configured.body.id;
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    const lines = (): Json[] =>
      api
        .logs()
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line));
    const linesSaying = (message: string) => lines().filter((line) => String(line.msg).startsWith(message));
    const post = (path: string, body: object, requestId?: string) =>
      api.request("POST", `/v1/transactions/${path}`, { key: acme.key, body, headers: requestId ? { "x-request-id": requestId } : {} });

    it("writes one line a request: method, route pattern, status, duration, caller and request id; no card, key or query string", async () => {
      const sale = await post("sale", { processor: "processor_a", amount: 1500, currency: "USD", card: approvedCard, userId: "u1" }, "log-test-sale");
      expect(sale.status, sale.text).toBe(201);
      const read = await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: acme.key, headers: { "x-request-id": "log-test-read" } });
      expect(read.status).toBe(200);
      const search = await api.request("GET", "/v1/transactions?reference=order-7731-private", {
        key: acme.key,
        headers: { "x-request-id": "log-test-search" },
      });
      expect(search.status).toBe(200);
      const refused = await api.request("GET", "/v1/clients", { key: acme.key, headers: { "x-request-id": "log-test-refused" } });
      expect(refused.status).toBe(403);

      const ofRequest = (requestId: string) => lines().filter((line) => line.requestId === requestId);
      await vi.waitFor(() => expect(ofRequest("log-test-refused")).toHaveLength(1), eventually);
      const [saleLine] = ofRequest("log-test-sale");
      expect(ofRequest("log-test-sale")).toHaveLength(1);
      expect(saleLine).toMatchObject({
        level: 30,
        msg: "request completed",
        method: "POST",
        route: "/v1/transactions/sale",
        status: 201,
        caller: "client",
        clientId: acme.clientId,
        keyId: acme.keyId,
        requestId: "log-test-sale",
      });
      expect(saleLine.durationMs).toBeGreaterThan(0);
      expect(ofRequest("log-test-read")).toEqual([
        expect.objectContaining({ method: "GET", route: "/v1/transactions/:id", status: 200, clientId: acme.clientId }),
      ]);
      expect(ofRequest("log-test-search")).toEqual([expect.objectContaining({ method: "GET", route: "/v1/transactions", status: 200 })]);
      expect(ofRequest("log-test-refused")).toEqual([expect.objectContaining({ route: "/v1/clients", status: 403, caller: "client" })]);
      // Probes and scrapes that succeed log at debug: an orchestrator's every few seconds would drown the payments.
      for (const path of ["/health/live", "/health/ready", "/metrics"]) {
        expect((await api.request("GET", path, { headers: { "x-request-id": `log-test-probe${path}` } })).status).toBe(200);
      }
      const unknown = await api.request("GET", "/v1/nothing-here", { key: acme.key, headers: { "x-request-id": "log-test-after-probes" } });
      expect(unknown.status).toBe(404);
      await vi.waitFor(() => expect(ofRequest("log-test-after-probes")).toHaveLength(1), eventually);
      expect(lines().filter((line) => String(line.requestId).startsWith("log-test-probe"))).toEqual([]);
      // Fastify's own lines ("incoming request", and a completion naming no route) are off.
      expect(api.logs()).not.toContain("incoming request");

      const logs = api.logs();
      expect(logs).not.toContain(approvedCard.number);
      expect(logs).not.toContain(acme.key);
      expect(logs).not.toContain(TEST_ADMIN_KEY);
      expect(logs).not.toContain("order-7731-private");
      expect(logs).not.toContain(sale.body.id);
    });

    it("logs a settlement batch closed, with its totals", async () => {
      const closing = await api.request("POST", `/v1/host-configurations/processor_a/${hostConfigurationId}/settle`, {});
      // 202 when the close outlasts SETTLEMENT_SYNC_WAIT_MS, as on a busy machine: it goes on.
      expect([201, 202], closing.text).toContain(closing.status);
      const closedLine = async () => {
        const lines = linesSaying("settlement batch closed");
        expect(lines).toHaveLength(1);
        return lines[0];
      };
      await vi.waitFor(closedLine, eventually);
      const closed = (await api.request("GET", `/v1/settlements/${closing.body.id}`)).body;
      expect(await closedLine()).toMatchObject({
        level: 30,
        settlementId: closed.id,
        clientId: acme.clientId,
        hostConfigurationId,
        status: "matched",
        transactionCount: 1,
        totals: closed.totals,
      });
    });

    it("logs a pending transaction resolved by the resolver", async () => {
      const sale = await post("sale", { processor: "processor_a", amount: 700, currency: "USD", card: heldCard, userId: "u1" });
      expect(sale.status, sale.text).toBe(504);
      const transactionId = sale.body.transaction.id;
      await vi.waitFor(() => {
        expect(linesSaying("pending transaction resolved").filter((line) => line.transactionId === transactionId)).toEqual([
          expect.objectContaining({ level: 30, resolution: "approved", paymentId: expect.any(String) }),
        ]);
      }, eventually);
    });

    it("logs an authorization expired, with the void sent for it", async () => {
      const authorization = await post("authorization", { processor: "processor_a", amount: 900, currency: "USD", card: approvedCard, userId: "u1" });
      expect(authorization.status, authorization.text).toBe(201);
      offsetMs += (TTL_SECONDS + 60) * 1000;
      await vi.waitFor(() => {
        expect(linesSaying("authorization expired").filter((line) => line.transactionId === authorization.body.id)).toEqual([
          expect.objectContaining({
            level: 30,
            clientId: acme.clientId,
            hostConfigurationId,
            voidTransactionId: expect.any(String),
            voidStatus: "approved",
          }),
        ]);
      }, eventually);
    });

    it("logs a webhook endpoint disabled after 3 days of failed deliveries", async () => {
      const created = await api.request("POST", "/v1/webhook-endpoints", {
        key: acme.key,
        body: { url: `${receiver.url}/failing`, events: ["transaction.approved"] },
      });
      expect(created.status, created.text).toBe(201);
      const sale = await post("sale", { processor: "processor_a", amount: 300, currency: "USD", card: approvedCard, userId: "u1" });
      expect(sale.status, sale.text).toBe(201);
      // The second attempt is sent only once the first is recorded: its streak starts before the clock moves.
      await receiver.waitFor((requests) => requests.length >= 2, { path: "/failing", message: "two refused attempts" });
      offsetMs += 3 * DAY_MS + 60_000;
      await vi.waitFor(() => {
        const about = lines().filter((line) => line.endpointId === created.body.id || line.msg.includes("webhook"));
        expect(about.filter((line) => line.disabledReason !== undefined), JSON.stringify(about)).toEqual([
          expect.objectContaining({ level: 40, clientId: acme.clientId, disabledReason: "deliveries_failing" }),
        ]);
      }, eventually);
    });
  });
}
