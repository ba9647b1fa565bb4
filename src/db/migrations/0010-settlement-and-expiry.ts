import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // What the settlement and expiry jobs look for, kept by the transactions projection: the
  // approved sales, captures and refunds not yet in a batch, per host configuration, and since
  // when each authorization with something left to capture has been approved.
  await sql`alter table transactions add column host_configuration_id uuid`.execute(db);
  await sql`update transactions set host_configuration_id = (view->>'hostConfigurationId')::uuid`.execute(db);
  await sql`alter table transactions alter column host_configuration_id set not null`.execute(db);
  await sql`alter table transactions add column awaiting_settlement boolean not null default false`.execute(db);
  await sql`update transactions set awaiting_settlement = true
    where status = 'approved' and type in ('sale', 'capture', 'refund') and view->>'voided' = 'false'`.execute(db);
  await sql`alter table transactions add column capturable_since timestamptz`.execute(db);
  await sql`update transactions set capturable_since = updated_at
    where type = 'authorization' and status = 'approved' and view->>'voided' = 'false'
      and (view->>'capturedAmount')::bigint < amount`.execute(db);
  await sql`create index transactions_awaiting_settlement on transactions (host_configuration_id, created_at)
    where awaiting_settlement`.execute(db);
  await sql`create index transactions_capturable on transactions (capturable_since) where capturable_since is not null`.execute(db);

  await sql`create table settlements (
    settlement_id uuid primary key,
    client_id uuid not null,
    processor text not null,
    host_configuration_id uuid not null,
    local_date text,
    status text not null,
    cutoff timestamptz not null,
    opened_at timestamptz not null,
    closed_at timestamptz,
    view jsonb
  )`.execute(db);
  await sql`create index settlements_closed on settlements (closed_at, settlement_id) where status in ('matched', 'mismatched')`.execute(db);
  await sql`create index settlements_client on settlements (client_id, closed_at, settlement_id)
    where status in ('matched', 'mismatched')`.execute(db);
  await sql`create index settlements_open on settlements (opened_at) where status = 'open'`.execute(db);
}
