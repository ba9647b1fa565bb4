import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The retention purge takes the oldest records first, a small batch at a time: without this
  // index each batch would scan the whole table.
  await sql`create index idempotency_records_created_at on idempotency_records (created_at)`.execute(db);
}
