import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";

export interface WebhookQueue {
  pending: number;
  oldestSeconds: number;
}

/** The deliveries still owed to enabled endpoints, and how long the oldest has waited. */
export async function measureWebhookQueue(db: Kysely<Database>): Promise<WebhookQueue> {
  const { rows } = await sql<{ pending: string; oldest_seconds: number | null }>`
    select count(*)::text as pending, extract(epoch from now() - min(d.created_at))::float8 as oldest_seconds
    from webhook_deliveries d
    join webhook_endpoints e on e.endpoint_id = d.endpoint_id and e.enabled and not e.deleted
    where d.status = 'pending'
  `.execute(db);
  const row = rows[0];
  return { pending: Number(row?.pending ?? 0), oldestSeconds: Math.max(0, row?.oldest_seconds ?? 0) };
}
