import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The dispatcher's order: a delivery waits while an earlier one of its subject is pending for
  // its endpoint. The outbox alone answers that, so nothing has to be read back into memory.
  await sql`create index webhook_deliveries_subject_pending on webhook_deliveries (endpoint_id, subject_id, position, ordinal)
    where status = 'pending'`.execute(db);
  await sql`drop index webhook_deliveries_retrying`.execute(db);
}
