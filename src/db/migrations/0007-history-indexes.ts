import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Transaction history (GET /v1/transactions) pages newest first on (created_at, transaction_id)
  // within one client; each selective filter gets an index that serves both the filter and that
  // order. Processor, currency and amount filters ride on these or on transactions_client_created.
  await sql`create index transactions_client_user_created
    on transactions (client_id, user_id, created_at desc, transaction_id desc)`.execute(db);
  await sql`create index transactions_client_status_created
    on transactions (client_id, status, created_at desc, transaction_id desc)`.execute(db);
  await sql`create index transactions_client_type_created
    on transactions (client_id, type, created_at desc, transaction_id desc)`.execute(db);
  await sql`create index transactions_client_reference_created
    on transactions (client_id, reference, created_at desc, transaction_id desc)`.execute(db);
  // An admin listing without clientId spans every client.
  await sql`create index transactions_created on transactions (created_at desc, transaction_id desc)`.execute(db);
}
