import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The journal's entries, each balanced in one currency, its lines kept with it (read whole).
  await sql`
    create table journal_entries (
      entry_id uuid primary key,
      client_id uuid not null,
      processor text not null,
      currency text not null,
      kind text not null,
      payment_id uuid,
      transaction_id uuid,
      settlement_id uuid,
      occurred_at timestamptz not null,
      event_id uuid not null,
      event_type text not null,
      event_position bigint not null,
      lines json not null
    )`.execute(db);
  // Pages newest first by the position of the event that posted them, a client's or everyone's.
  await sql`create index journal_entries_client_position on journal_entries (client_id, event_position, entry_id)`.execute(db);
  await sql`create index journal_entries_position on journal_entries (event_position, entry_id)`.execute(db);
  await sql`create index journal_entries_transaction on journal_entries (transaction_id) where transaction_id is not null`.execute(db);
  await sql`create index journal_entries_settlement on journal_entries (settlement_id) where settlement_id is not null`.execute(db);
  // What the journal keeps of each payment to post its next events, with the revision it reflects.
  await sql`
    create table journal_payments (
      payment_id uuid primary key,
      revision bigint not null,
      books json not null
    )`.execute(db);
}
