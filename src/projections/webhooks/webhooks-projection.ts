import { sql, type Transaction } from "kysely";
import { v5 } from "uuid";
import type { Database } from "../../db/schema.ts";
import { evolve, initialState, paymentDecider, type PaymentEvent, paymentEventTypes, type PaymentState } from "../../domain/payments/index.ts";
import { settlementDecider } from "../../domain/settlements/decider.ts";
import type { SettlementClosedV1, SettlementClosedV2 } from "../../domain/settlements/events.ts";
import { closedSettlementView } from "../../domain/settlements/view.ts";
import {
  upcastSnapshot,
  webhookEndpointDecider,
  type WebhookEndpointEvent,
  webhookEndpointEventTypes,
} from "../../domain/webhooks/endpoint.ts";
import { type EventSubscription, subscribes } from "../../domain/webhooks/event-types.ts";
import { paymentMessages, settlementMessages, type WebhookMessage } from "../../domain/webhooks/messages.ts";
import { narrowEvents, type Recorded } from "../../eventstore/typed-read.ts";
import { defineProjection, type Streams } from "../projection.ts";

const MESSAGE_NAMESPACE = "6f1d3c52-9a0e-4b7d-8e21-3c5a7b9d0e14";

/** The `webhook-id` of a message: the same whichever instance, replay or rebuild derives it. */
const messageIdOf = (eventId: string, type: string) => v5(`${eventId}/${type}`, MESSAGE_NAMESPACE);
const deliveryIdOf = (endpointId: string, messageId: string) => v5(`${endpointId}/${messageId}`, MESSAGE_NAMESPACE);

/** The events that become messages: a payment's, and a settlement batch's close. */
type SourceEvent = PaymentEvent | SettlementClosedV1 | SettlementClosedV2;
type AppliedEvent = WebhookEndpointEvent | SourceEvent;

const isEndpointEvent = webhookEndpointDecider.isEvent;
const isSettlementClose = <Stored extends { type: string }>(event: Stored): event is Stored & (SettlementClosedV1 | SettlementClosedV2) =>
  event.type === "SettlementClosed.v1" || event.type === "SettlementClosed.v2";

/**
 * The webhook endpoints, and the outbox: every payment or settlement event that a subscribed
 * endpoint wants becomes a delivery row, written in the same transaction as the checkpoint, so
 * an event recorded is delivered even if the process dies right after recording it. Endpoint
 * changes and the events they filter are applied in log order, so an endpoint gets exactly what
 * was recorded while it was subscribed. Deliveries have ids derived from the event and the
 * endpoint: applying an event again (a replay, a rebuild) finds them there and sends nothing twice.
 */
export const webhooksProjection = defineProjection<AppliedEvent>({
  name: "webhooks",
  tables: ["webhook_endpoints"],
  eventTypes: [...webhookEndpointEventTypes, ...paymentEventTypes, "SettlementClosed.v1", "SettlementClosed.v2"],

  async streamsToRead(db, events) {
    const sources = events.filter((event) => !isEndpointEvent(event));
    const none = { whole: [], openings: [] };
    if (sources.length === 0) return none;
    // With no enabled endpoint (the common case until a client subscribes) nothing is read. The
    // table is the one `apply` will read: it reflects the log up to this batch.
    const subscriber = () =>
      db
        .selectFrom("webhook_endpoints")
        .select("endpoint_id")
        .where("enabled", "=", true)
        .where("deleted", "=", false)
        .limit(1)
        .executeTakeFirst();
    const anySubscriber = events.some(isEndpointEvent) || (await subscriber()) !== undefined;
    if (!anySubscriber) return none;
    // A batch's close needs its opening only: the chunks of candidates between can weigh megabytes.
    const streamsOf = (closes: boolean) => [...new Set(sources.filter((event) => isSettlementClose(event) === closes).map((event) => event.streamId))];
    return { whole: streamsOf(false), openings: streamsOf(true) };
  },

  async apply(trx, events, streams) {
    // No streams read: no message to send in this batch, so who subscribes does not matter (and a
    // batch of payments costs no query while nobody subscribes).
    const endpoints = streams.size > 0 ? await storedSubscribers(trx) : new Map<string, Subscriber>();
    const changed = new Map<string, EndpointRow>();
    const deliveries: DeliveryRow[] = [];
    const folds = new StreamFolds(streams);
    for (const event of events) {
      if (isEndpointEvent(event)) {
        const row = endpointRow(event);
        endpoints.set(row.endpoint_id, row);
        changed.set(row.endpoint_id, row);
        continue;
      }
      if (streams.size === 0) continue;
      folds.messagesOf(event).forEach((message, ordinal) => {
        const messageId = messageIdOf(event.id, message.type);
        const payload = JSON.stringify({ id: messageId, type: message.type, createdAt: event.data.occurredAt, data: message.data });
        for (const endpoint of endpoints.values()) {
          if (!wants(endpoint, message)) continue;
          deliveries.push({
            delivery_id: deliveryIdOf(endpoint.endpoint_id, messageId),
            endpoint_id: endpoint.endpoint_id,
            client_id: message.clientId,
            message_id: messageId,
            event_type: message.type,
            subject_id: message.subjectId,
            position: event.position.toString(),
            ordinal,
            payload,
            traceparent: typeof event.metadata.traceparent === "string" ? event.metadata.traceparent : null,
          });
        }
      });
    }
    await saveEndpoints(trx, [...changed.values()]);
    await insertDeliveries(trx, deliveries);
  },
});

type EndpointRow = {
  endpoint_id: string;
  client_id: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  deleted: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  revision: string;
};

type DeliveryRow = {
  delivery_id: string;
  endpoint_id: string;
  client_id: string;
  message_id: string;
  event_type: string;
  subject_id: string;
  position: string;
  ordinal: number;
  payload: string;
  traceparent: string | null;
};

/** What deciding who gets a message needs of an endpoint. */
type Subscriber = Pick<EndpointRow, "endpoint_id" | "client_id" | "events" | "enabled" | "deleted">;

const wants = (endpoint: Subscriber, message: WebhookMessage) =>
  endpoint.client_id === message.clientId && endpoint.enabled && !endpoint.deleted && subscribes(endpoint.events, message.type);

function endpointRow(event: Recorded<WebhookEndpointEvent>): EndpointRow {
  const snapshot = upcastSnapshot(event.data);
  return {
    endpoint_id: snapshot.endpointId,
    client_id: snapshot.clientId,
    url: snapshot.url,
    events: snapshot.events,
    description: snapshot.description,
    enabled: snapshot.enabled,
    disabled_reason: snapshot.disabledReason,
    deleted: event.type === "WebhookEndpointDeleted.v1",
    secret: snapshot.secret,
    previous_secret: snapshot.previousSecret,
    previous_secret_expires_at: snapshot.previousSecretExpiresAt,
    created_at: snapshot.createdAt,
    updated_at: snapshot.occurredAt,
    revision: event.revision.toString(),
  };
}

async function storedSubscribers(trx: Transaction<Database>): Promise<Map<string, Subscriber>> {
  const rows = await trx
    .selectFrom("webhook_endpoints")
    .select(["endpoint_id", "client_id", "events", "enabled", "deleted"])
    .where("deleted", "=", false)
    .execute();
  return new Map(rows.map((row) => [row.endpoint_id, row]));
}

/** Each stream folded once, up to each event of the batch in turn. */
class StreamFolds {
  readonly #streams: Streams;
  readonly #folded = new Map<string, { history: readonly PaymentEvent[]; state: PaymentState; next: number }>();

  constructor(streams: Streams) {
    this.#streams = streams;
  }

  messagesOf(event: Recorded<SourceEvent>): WebhookMessage[] {
    const stream = this.#streams.get(event.streamId) ?? [];
    if (isSettlementClose(event)) {
      const [opening] = narrowEvents(settlementDecider.isEvent, event.streamId, stream.slice(0, 1));
      const view = closedSettlementView(opening, event);
      return view ? settlementMessages(view) : [];
    }
    const fold = this.#folded.get(event.streamId) ?? { history: narrowEvents(paymentDecider.isEvent, event.streamId, stream), state: initialState(), next: 0 };
    this.#folded.set(event.streamId, fold);
    const { history } = fold;
    const revision = Number(event.revision);
    if (revision < fold.next || revision >= history.length) return [];
    for (; fold.next < revision; fold.next += 1) fold.state = evolve(fold.state, history[fold.next]!);
    const before = fold.state;
    fold.state = evolve(before, history[revision]!);
    fold.next = revision + 1;
    return paymentMessages(before, fold.state);
  }
}

async function saveEndpoints(trx: Transaction<Database>, rows: EndpointRow[]) {
  if (rows.length === 0) return;
  await sql`
    insert into webhook_endpoints (endpoint_id, client_id, url, events, description, enabled, disabled_reason, deleted,
                                   secret, previous_secret, previous_secret_expires_at, created_at, updated_at, revision)
    select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as row(endpoint_id uuid, client_id uuid, url text, events jsonb, description text, enabled boolean,
             disabled_reason text, deleted boolean, secret text, previous_secret text,
             previous_secret_expires_at timestamptz, created_at timestamptz, updated_at timestamptz, revision bigint)
    on conflict (endpoint_id) do update
      set url = excluded.url, events = excluded.events, description = excluded.description, enabled = excluded.enabled,
          disabled_reason = excluded.disabled_reason, deleted = excluded.deleted, secret = excluded.secret, previous_secret = excluded.previous_secret,
          previous_secret_expires_at = excluded.previous_secret_expires_at, updated_at = excluded.updated_at,
          revision = excluded.revision
      where webhook_endpoints.revision < excluded.revision
  `.execute(trx);
}

/** New deliveries only: one already there, or purged (at or below the purge's position), is not queued again. */
async function insertDeliveries(trx: Transaction<Database>, rows: DeliveryRow[]) {
  if (rows.length === 0) return;
  await sql`
    insert into webhook_deliveries (delivery_id, endpoint_id, client_id, message_id, event_type, subject_id, position,
                                    ordinal, payload, traceparent, status, next_attempt_at)
    select *, 'pending', now() from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as row(delivery_id uuid, endpoint_id uuid, client_id uuid, message_id uuid, event_type text, subject_id uuid,
             position bigint, ordinal int, payload text, traceparent text)
    where row.position > coalesce((select through_position from webhook_outbox_purged), -1)
    on conflict (delivery_id) do nothing
  `.execute(trx);
}
