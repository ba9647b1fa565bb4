import { type Kysely, sql } from "kysely";

/**
 * Every transaction gets `state` (where it stands now) in its view and as a column, and its
 * parent as a column, for the history filters `state` and `parentTransactionId`. Rows written by
 * an earlier release get them here, computed from their view exactly as `stateOf` computes them
 * from the fold (tests/db/transaction-state-migration.test.ts holds the two to each other).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions add column state text, add column parent_transaction_id uuid`.execute(db);
  await sql`
    update transactions set
      parent_transaction_id = (v.view->>'parentTransactionId')::uuid,
      state = v.state,
      view = (v.view || jsonb_build_object('state', v.state))::json
    from (
      select transaction_id, view::jsonb as view, case
        when status <> 'approved' then status
        when type in ('refund', 'void') then 'succeeded'
        when type in ('sale', 'capture') then case
          when (view->>'voided')::boolean then 'voided'
          when (view->>'refundedAmount')::bigint >= amount then 'refunded'
          when (view->>'refundedAmount')::bigint > 0 then 'partially_refunded'
          else 'succeeded' end
        else case
          when view->>'expiredAt' is not null and (view->>'capturedAmount')::bigint = 0 then 'expired'
          when (view->>'voided')::boolean and (view->>'capturedAmount')::bigint = 0 then 'voided'
          when (view->>'capturedAmount')::bigint >= amount
            or (((view->>'voided')::boolean or view->>'expiredAt' is not null) and (view->>'capturedAmount')::bigint > 0) then 'captured'
          when (view->>'capturedAmount')::bigint > 0 then 'partially_captured'
          else 'authorized' end
        end as state
      from transactions
    ) v
    where transactions.transaction_id = v.transaction_id
  `.execute(db);
  await sql`alter table transactions alter column state set not null`.execute(db);

  // History by state within one client, newest first, like the status filter (0007).
  await sql`create index transactions_client_state_created
    on transactions (client_id, state, created_at desc, transaction_id desc)`.execute(db);
  // A payment's captures, refunds and voids: few per parent, so the parent alone finds them.
  await sql`create index transactions_parent_created
    on transactions (parent_transaction_id, created_at desc, transaction_id desc) where parent_transaction_id is not null`.execute(db);
}
