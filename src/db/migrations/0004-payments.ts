import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The transactions projection. `payments` keeps each payment's folded state and the stream
  // revision it reflects; `transactions` holds one row per transaction, as the API returns it.
  await sql`
    create table payments (
      payment_id uuid primary key,
      client_id uuid not null,
      revision bigint not null,
      state jsonb not null
    )`.execute(db);
  await sql`
    create table transactions (
      transaction_id uuid primary key,
      payment_id uuid not null,
      client_id uuid not null,
      type text not null,
      status text not null,
      user_id text not null,
      processor text not null,
      currency text not null,
      amount bigint not null,
      reference text,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      view jsonb not null
    )`.execute(db);
  await sql`create index transactions_client_created on transactions (client_id, created_at desc, transaction_id desc)`.execute(db);
  await sql`create index transactions_pending on transactions (created_at) where status = 'pending'`.execute(db);
}
