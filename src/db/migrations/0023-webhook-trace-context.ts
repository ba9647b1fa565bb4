import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The `traceparent` of the append that caused the message, when it was traced: its deliveries
  // link back to that trace. Null for rows written before, or while tracing was off.
  await sql`alter table webhook_deliveries add column traceparent text`.execute(db);
}
