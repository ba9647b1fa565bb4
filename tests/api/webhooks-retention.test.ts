import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openEventStore } from "../../src/eventstore/open.ts";
import { rebuildProjection } from "../../src/projections/rebuild.ts";
import { webhooksProjection } from "../../src/projections/webhooks/webhooks-projection.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

// API.md: WEBHOOK_LOG_RETENTION_DAYS is how long delivery attempts are kept. What is older and
// finished goes; a delivery still owed never does.

const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };

for (const target of testDatabaseTargets()) {
  describe(`webhook delivery records past their retention, on ${target}`, () => {
    let receiver: WebhookReceiver;
    let api: TestService;

    beforeAll(async () => {
      receiver = await startWebhookReceiver((request) => (request.path === "/down" || request.path === "/deleted" ? 503 : 200));
      api = await startTestService(target, {
        // The first retry an hour away: an undelivered message stays pending through the test.
        ...loopbackWebhookEnvironment({ retryBaseMs: 3_600_000, dispatchIntervalMs: 50 }),
        WEBHOOK_LOG_RETENTION_DAYS: "30",
        RETENTION_PURGE_INTERVAL_MS: "100",
      });
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    it("are purged when finished, never while owed to an endpoint; a rebuild does not queue them again", async () => {
      const { db } = api.database;
      const acme = await api.createClient("Acme");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: acme.clientId } });
      expect(configured.status, configured.text).toBe(201);
      const endpoints: Record<string, string> = {};
      for (const path of ["/old", "/recent", "/down", "/deleted"]) {
        const created = await api.request("POST", "/v1/webhook-endpoints", { key: acme.key, body: { url: `${receiver.url}${path}`, events: ["*"] } });
        expect(created.status, created.text).toBe(201);
        endpoints[path] = created.body.id;
      }
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: { processor: "processor_a", amount: 1200, currency: "USD", card, userId: "u1" },
      });
      expect(sale.status, sale.text).toBe(201);
      // Each endpoint has had its pending message attempted: delivered, or refused and owed an hour later.
      for (const path of Object.keys(endpoints)) await receiver.waitFor((requests) => requests.length >= 1, { path });
      const deliveries = (endpoint: string) =>
        db.selectFrom("webhook_deliveries").select(["delivery_id", "status"]).where("endpoint_id", "=", endpoint).execute();
      const attempts = async (endpoint: string) =>
        (await db.selectFrom("webhook_attempts").select("attempt_id").where("endpoint_id", "=", endpoint).execute()).length;
      await vi.waitFor(async () => expect((await deliveries(endpoints["/old"]!)).map((row) => row.status)).toEqual(["delivered", "delivered"]), {
        timeout: 10_000,
        interval: 50,
      });
      await vi.waitFor(async () => expect((await deliveries(endpoints["/recent"]!)).map((row) => row.status)).toEqual(["delivered", "delivered"]), {
        timeout: 10_000,
        interval: 50,
      });
      await vi.waitFor(async () => expect(await attempts(endpoints["/down"]!)).toBe(1), { timeout: 10_000, interval: 50 });
      const deleted = await api.request("DELETE", `/v1/webhook-endpoints/${endpoints["/deleted"]}`, { key: acme.key });
      expect(deleted.status).toBe(204);

      // 31 days pass for everything but /recent's deliveries.
      await sql`
        update webhook_deliveries set updated_at = updated_at - interval '31 days', created_at = created_at - interval '31 days'
        where endpoint_id <> ${endpoints["/recent"]!}::uuid
      `.execute(db);
      await sql`update webhook_attempts set created_at = created_at - interval '31 days' where endpoint_id <> ${endpoints["/recent"]!}::uuid`.execute(db);

      await vi.waitFor(
        async () => {
          expect(await deliveries(endpoints["/old"]!)).toEqual([]);
          expect(await deliveries(endpoints["/deleted"]!)).toEqual([]);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(await attempts(endpoints["/old"]!)).toBe(0);
      expect(await attempts(endpoints["/deleted"]!)).toBe(0);
      const oldLog = await api.request("GET", `/v1/webhook-endpoints/${endpoints["/old"]}/deliveries`, { key: acme.key });
      expect(oldLog.body.data).toEqual([]);
      // Kept: what is recent, and what is still owed, however old.
      expect((await deliveries(endpoints["/recent"]!)).map((row) => row.status)).toEqual(["delivered", "delivered"]);
      expect(await attempts(endpoints["/recent"]!)).toBe(2);
      expect((await deliveries(endpoints["/down"]!)).map((row) => row.status)).toEqual(["pending", "pending"]);
      expect(await attempts(endpoints["/down"]!)).toBe(1);
      // The pass logs once its batches are done, and a batch rests after its statement: the rows go first.
      await vi.waitFor(() => expect(api.logs()).toContain("purged webhook deliveries"), { timeout: 10_000, interval: 50 });

      // A rebuild replays the sale: the purged deliveries are not queued, nor sent, again.
      const sent = receiver.requests.length;
      await rebuildProjection({ db, store: openEventStore(undefined, db), projection: webhooksProjection });
      expect(await deliveries(endpoints["/old"]!)).toEqual([]);
      expect(await deliveries(endpoints["/recent"]!)).toHaveLength(2);
      await sleep(300);
      expect(receiver.requests).toHaveLength(sent);
    }, 60_000);
  });
}
