import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The client's limits as last set (ClientLimitsSet.v1), for the payment path and the API.
  await sql`alter table clients add column limits jsonb not null default '[]'::jsonb`.execute(db);
}
