import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Keys listed to their admin show their first characters; older keys have none recorded.
  await sql`alter table api_keys add column prefix text`.execute(db);
  await sql`create index api_keys_client on api_keys (client_id, created_at, key_id)`.execute(db);
  await sql`create index clients_created on clients (created_at, client_id)`.execute(db);
}
