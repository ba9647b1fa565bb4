import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table api_keys add column name text`.execute(db);
  // Not in api_keys: last use is no event, so a rebuild of the clients read model, which replaces
  // api_keys with a copy replayed from the log, must not take it along.
  await sql`
    create table api_key_last_used (
      key_id uuid primary key,
      last_used_at timestamptz not null
    )`.execute(db);
}
