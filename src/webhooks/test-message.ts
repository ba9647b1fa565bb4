import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { newId } from "../ids.ts";

export interface QueuedTestMessage {
  deliveryId: string;
  /** The message's `webhook-id`. */
  eventId: string;
}

/**
 * Queues one `webhook.test` message for one endpoint: a delivery of its own in the outbox, sent,
 * signed, retried and logged like any other. It is about no event of the log, so it has position
 * 0 (never above the purge's position) and its own subject (it waits for no other message).
 */
export async function queueTestMessage(
  db: Kysely<Database>,
  endpoint: { endpointId: string; clientId: string },
  now: Date,
): Promise<QueuedTestMessage> {
  const deliveryId = newId();
  const eventId = newId();
  const payload = JSON.stringify({ id: eventId, type: "webhook.test", createdAt: now.toISOString(), data: { endpointId: endpoint.endpointId } });
  await sql`
    insert into webhook_deliveries (delivery_id, endpoint_id, client_id, message_id, event_type, subject_id, position,
                                    ordinal, payload, status, next_attempt_at)
    values (${deliveryId}, ${endpoint.endpointId}, ${endpoint.clientId}, ${eventId}, 'webhook.test', ${newId()}, 0,
            0, ${payload}, 'pending', now())
  `.execute(db);
  return { deliveryId, eventId };
}
