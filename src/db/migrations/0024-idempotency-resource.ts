import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The id of what a creating request makes (a client, webhook endpoint, host configuration or
  // payment method), made with the key's claim: a retry that takes the claim over makes the same
  // one. Null for records of other routes and older ones.
  await sql`alter table idempotency_records add column resource_id uuid`.execute(db);
}
