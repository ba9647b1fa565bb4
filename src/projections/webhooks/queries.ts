import type { Kysely, Selectable } from "kysely";
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from "../../db/schema.ts";
import type { WebhookDisabledReason } from "../../domain/webhooks/endpoint.ts";
import type { EventSubscription } from "../../domain/webhooks/event-types.ts";
import { newestFirst, type TimeKey } from "../newest-first.ts";

/**
 * The API's reads of the webhook endpoints read model (`webhooks-projection.ts` writes it) and of
 * the delivery log its outbox feeds. The lists are pages newest first, `limit + 1` rows.
 */

/** An endpoint as the API shows it: never its secret. */
export interface WebhookEndpointView {
  id: string;
  clientId: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  createdAt: string;
  updatedAt: string;
}

const endpointColumns = [
  "endpoint_id",
  "client_id",
  "url",
  "events",
  "description",
  "enabled",
  "disabled_reason",
  "created_at",
  "updated_at",
] as const;

type WebhookEndpointRow = Pick<Selectable<WebhookEndpointsTable>, (typeof endpointColumns)[number]>;

export const webhookEndpointView = (row: WebhookEndpointRow): WebhookEndpointView => ({
  id: row.endpoint_id,
  clientId: row.client_id,
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** An endpoint not deleted, whoever's it is: the caller checks who may see it. */
export async function findWebhookEndpoint(db: Kysely<Database>, endpointId: string): Promise<WebhookEndpointView | undefined> {
  const row = await db
    .selectFrom("webhook_endpoints")
    .select(endpointColumns)
    .where("endpoint_id", "=", endpointId)
    .where("deleted", "=", false)
    .executeTakeFirst();
  return row && webhookEndpointView(row);
}

/** A page of the endpoints not deleted, one client's when `clientId` is given; on (`created_at`, `endpoint_id`). */
export function webhookEndpointsOf(db: Kysely<Database>, clientId: string | undefined, after: TimeKey | undefined, limit: number) {
  const endpoints = db
    .selectFrom("webhook_endpoints")
    .select(endpointColumns)
    .where("deleted", "=", false)
    .$if(clientId !== undefined, (q) => q.where("client_id", "=", clientId!));
  return newestFirst(endpoints, ["created_at", "endpoint_id"], after, limit).execute();
}

/** A delivery attempt as the API shows it. */
export interface WebhookAttemptView {
  id: string;
  deliveryId: string;
  /** The message's `webhook-id`: the same on every attempt. */
  eventId: string;
  eventType: string;
  attempt: number;
  status: WebhookAttemptsTable["status"];
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** A page of an endpoint's delivery attempts, each with its message; on (`a.created_at`, `a.attempt_id`). */
export function webhookAttemptsOf(db: Kysely<Database>, endpointId: string, after: TimeKey | undefined, limit: number) {
  const attempts = db
    .selectFrom("webhook_attempts as a")
    .innerJoin("webhook_deliveries as d", "d.delivery_id", "a.delivery_id")
    .select([
      "a.attempt_id",
      "a.delivery_id",
      "d.message_id",
      "d.event_type",
      "a.attempt",
      "a.status",
      "a.response_status",
      "a.duration_ms",
      "a.error",
      "a.next_attempt_at",
      "a.created_at",
    ])
    .where("a.endpoint_id", "=", endpointId);
  return newestFirst(attempts, ["a.created_at", "a.attempt_id"], after, limit).execute();
}

type WebhookAttemptRow = Omit<Selectable<WebhookAttemptsTable>, "endpoint_id"> & Pick<Selectable<WebhookDeliveriesTable>, "message_id" | "event_type">;

export const webhookAttemptView = (row: WebhookAttemptRow): WebhookAttemptView => ({
  id: row.attempt_id,
  deliveryId: row.delivery_id,
  eventId: row.message_id,
  eventType: row.event_type,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  durationMs: row.duration_ms,
  error: row.error,
  nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
  createdAt: row.created_at.toISOString(),
});

/** The delivery `id` names, or the delivery of the attempt it names; whoever's it is: the caller checks who may see it. */
export async function findWebhookDelivery(db: Kysely<Database>, id: string): Promise<{ deliveryId: string; clientId: string } | undefined> {
  const row = await db
    .selectFrom("webhook_deliveries")
    .select(["delivery_id", "client_id"])
    .where((eb) =>
      eb.or([
        eb("delivery_id", "=", id),
        eb("delivery_id", "=", eb.selectFrom("webhook_attempts").select("delivery_id").where("attempt_id", "=", id)),
      ]),
    )
    .executeTakeFirst();
  return row && { deliveryId: row.delivery_id, clientId: row.client_id };
}
