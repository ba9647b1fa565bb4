import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openEventStore } from "../../src/eventstore/open.ts";
import { readStreamsFor } from "../../src/projections/projection.ts";
import { rebuildProjection } from "../../src/projections/rebuild.ts";
import { webhooksProjection } from "../../src/projections/webhooks/webhooks-projection.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";

const sale = { processor: "processor_a", amount: 1000, currency: "USD", userId: "u1", card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

for (const target of testDatabaseTargets()) {
  describe(`the webhook outbox, on ${target}`, () => {
    let api: TestService;
    let receiver: WebhookReceiver;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(200);
      api = await startTestService(target, loopbackWebhookEnvironment({ dispatchIntervalMs: 50 }));
      acme = await api.createClient("Acme");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: acme.clientId } });
      expect(configured.status).toBe(201);
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    const transactionIdsReceived = () =>
      receiver.requests.map((request) => `${JSON.parse(request.body).type} ${JSON.parse(request.body).data.transaction.id}`);

    it("sends what was recorded after the endpoint's creation only, and a rebuild sends nothing again", async () => {
      const before = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body: sale });
      expect(before.status).toBe(201);
      const endpoint = await api.request("POST", "/v1/webhook-endpoints", {
        key: acme.key,
        body: { url: `${receiver.url}/hooks`, events: ["*"] },
      });
      expect(endpoint.status).toBe(201);
      const after = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body: sale });
      expect(after.status).toBe(201);
      await receiver.waitFor((requests) => requests.length >= 2);
      await sleep(300); // Anything else the dispatcher would send goes now.
      expect(transactionIdsReceived()).toEqual([`transaction.pending ${after.body.id}`, `transaction.approved ${after.body.id}`]);

      const deliveries = () => api.database.db.selectFrom("webhook_deliveries").select(["delivery_id", "status", "attempts"]).orderBy("delivery_id").execute();
      // A delivery is marked once its answer is back, after the receiver has the request.
      await vi.waitFor(async () => expect((await deliveries()).map((row) => row.status)).toEqual(["delivered", "delivered"]), { timeout: 10_000, interval: 50 });
      const deliveredBefore = await deliveries();
      const replayed = await rebuildProjection({ db: api.database.db, store: openEventStore(undefined, api.database.db), projection: webhooksProjection });
      expect(replayed).toBeGreaterThanOrEqual(5);
      const listed = await api.request("GET", "/v1/webhook-endpoints", { key: acme.key });
      expect(listed.body.data.map((row: { id: string }) => row.id)).toEqual([endpoint.body.id]);
      expect(await deliveries()).toEqual(deliveredBefore);
      await sleep(500);
      expect(receiver.requests).toHaveLength(2);

      const third = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body: sale });
      await receiver.waitFor((requests) => requests.length >= 4);
      expect(transactionIdsReceived().slice(2)).toEqual([`transaction.pending ${third.body.id}`, `transaction.approved ${third.body.id}`]);
    });

    it("reads a closed batch's opening only, not its chunks of candidates, to send settlement.closed", async () => {
      const configuration = (await api.request("GET", "/v1/host-configurations/processor_a", { key: acme.key })).body.data[0];
      const closed = await api.request("POST", `/v1/host-configurations/processor_a/${configuration.id}/settle`, { body: {} });
      expect(closed.status, closed.text).toBe(201);
      await receiver.waitFor((requests) => requests.some((request) => JSON.parse(request.body).type === "settlement.closed"));
      const store = openEventStore(undefined, api.database.db);
      const batchStream = await store.readStream(`settlement-${closed.body.id}`);
      expect(batchStream.map((event) => event.type.replace(/\.v\d+$/, ""))).toEqual([
        "SettlementOpened",
        "SettlementCandidatesRecorded",
        "SettlementSealed",
        "SettlementClosed",
      ]);
      const read = await readStreamsFor(webhooksProjection, api.database.db, store, batchStream.slice(-1));
      expect(read.get(`settlement-${closed.body.id}`)).toEqual(batchStream.slice(0, 1));
    });
  });
}
