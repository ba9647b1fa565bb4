import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A deletion first marks the key deleting: from then no payment reads it. It is erased once the
  // payments that read it before have had their processor calls answered (their uses are gone).
  await sql`alter table payment_method_keys add column deleting_since timestamptz`.execute(db);
  // A payment that read a card's key to send it, until its processor call has returned; a row that
  // outlives any call (its process died) is ignored by deletions.
  await sql`
    create table payment_method_uses (
      transaction_id uuid primary key,
      payment_method_id uuid not null,
      started_at timestamptz not null
    )`.execute(db);
  await sql`create index payment_method_uses_method on payment_method_uses (payment_method_id)`.execute(db);
}
