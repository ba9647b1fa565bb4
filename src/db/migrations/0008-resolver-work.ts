import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the pending resolver still owes each transaction ('inquire' or 'reverse'; null: nothing),
  // so it walks only those rows, in (created_at, transaction_id) order, resuming where it stopped.
  await sql`alter table transactions add column resolver_work text`.execute(db);
  await sql`update transactions set resolver_work = 'inquire' where status = 'pending'`.execute(db);
  await sql`drop index transactions_pending`.execute(db);
  await sql`create index transactions_resolver_work on transactions (created_at, transaction_id)
    where resolver_work is not null`.execute(db);
}
