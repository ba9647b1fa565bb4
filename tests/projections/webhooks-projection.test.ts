import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { fold } from "../../src/domain/decider.ts";
import { asEncryptedSecret } from "../../src/domain/host-configurations/decider.ts";
import { paymentDecider, type PaymentEvent, toTransactionView } from "../../src/domain/payments/index.ts";
import { type SettlementEvent, settlementStreamId } from "../../src/domain/settlements/events.ts";
import { totalsOf } from "../../src/domain/settlements/totals.ts";
import { closedSettlementView } from "../../src/domain/settlements/view.ts";
import { webhookEndpointStreamId, type WebhookEndpointEvent, type WebhookEndpointSnapshot } from "../../src/domain/webhooks/endpoint.ts";
import type { EventSubscription } from "../../src/domain/webhooks/event-types.ts";
import { webhooksProjection } from "../../src/projections/webhooks/webhooks-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, idSequence, projectionSpec } from "../support/projection-spec.ts";
import { approved, at, hostConfigurationId, initiated } from "../domain/payments/fixtures.ts";

const created = "2026-01-01T00:00:00.000Z";

const endpointOf = (endpointId: string, clientId: string, events: EventSubscription[] = ["*"]): WebhookEndpointSnapshot => ({
  endpointId,
  clientId,
  url: `https://shop.example/hooks/${endpointId}`,
  events,
  description: null,
  enabled: true,
  disabledReason: null,
  secret: asEncryptedSecret("v2.test.a.b"),
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: created,
  occurredAt: created,
});

type Delivery = [endpointId: string, type: string, subjectId: string];

/** The client's endpoints as the API lists them, and the deliveries queued for them, in the order they go out. */
function outboxOf(clientId: string) {
  return async (db: Kysely<Database>) => {
    const endpoints = await db
      .selectFrom("webhook_endpoints")
      .select(["endpoint_id", "url", "events", "enabled", "disabled_reason", "deleted", "revision"])
      .where("client_id", "=", clientId)
      .orderBy("endpoint_id")
      .execute();
    const deliveries = await db
      .selectFrom("webhook_deliveries")
      .select(["endpoint_id", "event_type", "subject_id"])
      .where("client_id", "=", clientId)
      .orderBy("position")
      .orderBy("ordinal")
      .orderBy("endpoint_id")
      .execute();
    return {
      endpoints: endpoints.map((row) => ({ ...row, revision: Number(row.revision) })),
      deliveries: deliveries.map((row): Delivery => [row.endpoint_id, row.event_type, row.subject_id]),
    };
  };
}

/** An endpoint's row, as the snapshot of its last event (at `revision`) leaves it. */
const listed = (endpoint: WebhookEndpointSnapshot, revision: number, deleted = false) => ({
  endpoint_id: endpoint.endpointId,
  url: endpoint.url,
  events: endpoint.events,
  enabled: endpoint.enabled,
  disabled_reason: endpoint.disabledReason,
  deleted,
  revision,
});

for (const target of testDatabaseTargets()) {
  describe(`the webhooks read model and outbox, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given } = projectionSpec(webhooksProjection, () => database.db);
    const record = eventLog();
    // One database for the file: each test a client, endpoints and payments of its own.
    const newId = idSequence();
    const endpointEvents = (endpointId: string, ...events: WebhookEndpointEvent[]) => record(webhookEndpointStreamId(endpointId), events);
    const paymentEvents = (paymentId: string, ...events: PaymentEvent[]) => record(`payment-${paymentId}`, events);
    const sale = (saleId: string, clientId: string) => initiated(saleId, "sale", 1000, null, { clientId });

    it("keeps each endpoint as its last event leaves it", async () => {
      const clientId = newId();
      const [kept, removed] = [newId(), newId()];
      const disabled = { ...endpointOf(kept, clientId), enabled: false, disabledReason: "deliveries_failing" as const, occurredAt: at(1) };
      await given(endpointEvents(removed, { type: "WebhookEndpointCreated.v1", data: endpointOf(removed, clientId) }))
        .when([
          ...endpointEvents(kept, { type: "WebhookEndpointCreated.v1", data: endpointOf(kept, clientId) }, { type: "WebhookEndpointDisabled.v1", data: disabled }),
          ...endpointEvents(removed, { type: "WebhookEndpointDeleted.v1", data: endpointOf(removed, clientId) }),
        ])
        .then(outboxOf(clientId), {
          endpoints: [listed(disabled, 1), listed(endpointOf(removed, clientId), 1, true)].sort((a, b) => a.endpoint_id.localeCompare(b.endpoint_id)),
          deliveries: [],
        });
    });

    it("queues a payment's messages for the client's subscribed endpoints, from the endpoint's creation on, in log order", async () => {
      const clientId = newId();
      const [everything, approvals, saleId] = [newId(), newId(), newId()];
      const before = paymentEvents(saleId, sale(saleId, clientId));
      const subscribed = [
        ...endpointEvents(everything, { type: "WebhookEndpointCreated.v1", data: endpointOf(everything, clientId) }),
        ...endpointEvents(approvals, { type: "WebhookEndpointCreated.v1", data: endpointOf(approvals, clientId, ["transaction.approved"]) }),
      ];
      const after = paymentEvents(saleId, approved(saleId));
      // The sale's intent is recorded before the endpoints in the same batch: only its approval is theirs.
      await given([])
        .when([...before, ...subscribed, ...after])
        .then(async (db) => (await outboxOf(clientId)(db)).deliveries, [
          [everything, "transaction.approved", saleId],
          [approvals, "transaction.approved", saleId],
        ]);
    });

    it("sends each message as the transaction stood right after its event", async () => {
      const clientId = newId();
      const [endpointId, saleId] = [newId(), newId()];
      const payment = [sale(saleId, clientId), approved(saleId)];
      const subscribed = endpointEvents(endpointId, { type: "WebhookEndpointCreated.v1", data: endpointOf(endpointId, clientId) });
      const payloads = async (db: Kysely<Database>) =>
        (await db.selectFrom("webhook_deliveries").select("payload").where("endpoint_id", "=", endpointId).orderBy("position").execute()).map(
          (row) => JSON.parse(row.payload).data,
        );
      await given(subscribed)
        .when(paymentEvents(saleId, ...payment))
        .then(payloads, [
          { transaction: toTransactionView(fold(paymentDecider, payment.slice(0, 1)), saleId) },
          { transaction: toTransactionView(fold(paymentDecider, payment), saleId) },
        ]);
    });

    it("queues nothing for another client's, a disabled or a deleted endpoint", async () => {
      const [clientId, otherClientId] = [newId(), newId()];
      const [others, disabled, deleted, saleId] = [newId(), newId(), newId(), newId()];
      const endpoints = [
        ...endpointEvents(others, { type: "WebhookEndpointCreated.v1", data: endpointOf(others, otherClientId) }),
        ...endpointEvents(disabled, { type: "WebhookEndpointCreated.v1", data: { ...endpointOf(disabled, clientId), enabled: false } }),
        ...endpointEvents(deleted, { type: "WebhookEndpointCreated.v1", data: endpointOf(deleted, clientId) }, {
          type: "WebhookEndpointDeleted.v1",
          data: endpointOf(deleted, clientId),
        }),
      ];
      await given(endpoints)
        .when(paymentEvents(saleId, sale(saleId, clientId), approved(saleId)))
        .then(async (db) => [...(await outboxOf(clientId)(db)).deliveries, ...(await outboxOf(otherClientId)(db)).deliveries], []);
    });

    it("queues a closed batch's settlement.closed, and settlement.mismatched when the processor's totals disagree, once however often applied", async () => {
      const clientId = newId();
      const [endpointId, settlementId] = [newId(), newId()];
      const batch = { settlementId, clientId, processor: "processor_a" as const, hostConfigurationId, cutoff: at(4) };
      const opened: SettlementEvent = { type: "SettlementOpened.v2", data: { ...batch, localDate: null, occurredAt: at(4) } };
      const closed: SettlementEvent = {
        type: "SettlementClosed.v2",
        data: {
          ...batch,
          transactionCount: 1,
          totals: totalsOf([{ type: "sale", currency: "USD", amount: 1000 }]),
          processorTotals: totalsOf([{ type: "sale", currency: "USD", amount: 900 }]),
          status: "mismatched",
          occurredAt: at(5),
        },
      };
      const subscribed = endpointEvents(endpointId, { type: "WebhookEndpointCreated.v1", data: endpointOf(endpointId, clientId) });
      const [opening, closing] = record(settlementStreamId(settlementId), [opened, closed]);
      const settlements = async (db: Kysely<Database>) =>
        (await db.selectFrom("webhook_deliveries").select(["event_type", "payload"]).where("endpoint_id", "=", endpointId).orderBy("ordinal").execute()).map(
          (row) => [row.event_type, JSON.parse(row.payload).data],
        );
      const settlement = closedSettlementView(opened, closed);
      await given([...subscribed, opening!, closing!])
        .when([closing!])
        .then(settlements, [
          ["settlement.closed", { settlement }],
          ["settlement.mismatched", { settlement }],
        ]);
    });
  });
}
