import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/db/schema.ts";
import { newId } from "../../src/ids.ts";

/** An enabled endpoint subscribed to everything, written straight to its table; its id and client's. */
export async function insertWebhookEndpoint(db: Kysely<Database>): Promise<{ endpointId: string; clientId: string }> {
  const endpointId = newId();
  const clientId = newId();
  await sql`
    insert into webhook_endpoints (endpoint_id, client_id, url, events, enabled, deleted, secret, created_at, updated_at, revision)
    values (${endpointId}, ${clientId}, 'https://merchant.example/hooks', '["*"]', true, false, 'sealed', now(), now(), 0)
  `.execute(db);
  return { endpointId, clientId };
}

/**
 * Two deliveries for each subject (a sale's transaction.pending and transaction.approved), in
 * log order, due a minute ago, with the given status.
 */
export async function insertWebhookDeliveries(
  db: Kysely<Database>,
  { endpointId, clientId }: { endpointId: string; clientId: string },
  subjectIds: readonly string[],
  status: "delivered" | "pending",
): Promise<void> {
  await sql`
    insert into webhook_deliveries (delivery_id, endpoint_id, client_id, message_id, event_type, subject_id, position,
                                    ordinal, payload, status, next_attempt_at)
    select gen_random_uuid(), ${endpointId}, ${clientId}, gen_random_uuid(),
           case when m.ordinal = 0 then 'transaction.pending' else 'transaction.approved' end,
           s.subject_id::uuid, s.i * 2 + m.ordinal, m.ordinal, '{}', ${status}, now() - interval '1 minute'
    from jsonb_array_elements_text(${JSON.stringify(subjectIds)}::jsonb) with ordinality as s(subject_id, i)
    cross join (values (0), (1)) as m(ordinal)
  `.execute(db);
}
