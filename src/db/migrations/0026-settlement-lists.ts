import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // GET /v1/settlements lists batches of every status, closing ones (no closedAt yet) included:
  // newest first by when they opened, which never changes, so pages never skip or repeat one.
  await sql`create index settlements_listed on settlements (opened_at, settlement_id)`.execute(db);
  await sql`create index settlements_client_listed on settlements (client_id, opened_at, settlement_id)`.execute(db);
}
