import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A claim is held by one request (its token) until `locked_until`; a transaction's intent binds
  // the key to that transaction for good.
  await sql`
    alter table idempotency_records
      add column claim_token text,
      add column locked_until timestamptz,
      add column transaction_id uuid,
      add column payment_id uuid`.execute(db);
}
