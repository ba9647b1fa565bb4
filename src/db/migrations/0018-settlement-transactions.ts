import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A batch's transactions are paged, never listed whole in its object: the candidates each batch
  // took, newest first by their time-ordered id (the primary key, scanned backwards). Batches
  // closed before this keep those they settled.
  await sql`create table settlement_transactions (
    settlement_id uuid not null,
    transaction_id uuid not null,
    primary key (settlement_id, transaction_id)
  )`.execute(db);
  await sql`insert into settlement_transactions (settlement_id, transaction_id)
    select (view->>'settlementId')::uuid, transaction_id from transactions where view->>'settlementId' is not null
    on conflict do nothing`.execute(db);
  // Batches are shown from their opening on, with a count instead of their list of ids.
  await sql`update settlements
    set view = (view - 'transactionIds') || jsonb_build_object('transactionCount', jsonb_array_length(view->'transactionIds'))
    where view ? 'transactionIds'`.execute(db);
  await sql`update settlements
    set view = jsonb_build_object(
      'id', settlement_id, 'clientId', client_id, 'processor', processor, 'hostConfigurationId', host_configuration_id,
      'closedAt', null, 'cutoff', to_char(cutoff at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'status', case status when 'open' then 'closing' else status end,
      'totals', '[]'::jsonb, 'processorTotals', '[]'::jsonb, 'transactionCount', 0)
    where view is null`.execute(db);
}
