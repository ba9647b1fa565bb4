import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import {
  capturableAmount,
  evolve,
  initialState,
  type PaymentEvent,
  paymentEventTypes,
  type PaymentState,
  resolverWork,
  settleable,
  type TransactionView,
  toTransactionView,
} from "../../domain/payments/index.ts";
import { fromStored, type StoredPaymentState, toStored } from "../../domain/payments/stored-state.ts";
import type { Recorded } from "../../eventstore/typed-read.ts";
import { defineProjection } from "../projection.ts";

/**
 * One row per transaction, as the API returns it, kept current as its payment moves on (a
 * capture changes its authorization's capturedAmount). Each payment's folded state is kept with
 * the stream revision it reflects, so a replayed event is recognised and skipped.
 *
 * A batch is applied set-wise: one read of the payments it touches, one upsert of their states
 * and of the transactions whose view changed, however many payments the batch holds. The
 * runner's checkpoint update, first in the same database transaction, already serializes
 * batches, so the payment rows need no lock of their own.
 */
export const transactionsProjection = defineProjection<PaymentEvent>({
  name: "transactions",
  tables: ["payments", "transactions"],
  eventTypes: paymentEventTypes,
  async apply(trx, events) {
    const byPayment = groupByPayment(events);
    const stored = await storedPayments(trx, [...byPayment.keys()]);
    const payments: PaymentRow[] = [];
    const transactions: TransactionRow[] = [];
    for (const [paymentId, paymentEvents] of byPayment) {
      const before = stored.get(paymentId) ?? { revision: -1n, state: initialState() };
      let { state, revision } = before;
      for (const event of paymentEvents) {
        if (event.revision <= revision) continue;
        state = evolve(state, event);
        revision = event.revision;
      }
      const root = state.rootTransactionId ? state.transactions.get(state.rootTransactionId) : undefined;
      if (!root || revision === before.revision) continue;
      payments.push({ payment_id: paymentId, client_id: root.clientId, revision: revision.toString(), state: toStored(state) });
      transactions.push(...changedTransactions(paymentId, before.state, state));
    }
    await upsert(trx, payments, transactions);
  },
});

function groupByPayment(events: readonly Recorded<PaymentEvent>[]): Map<string, Recorded<PaymentEvent>[]> {
  const payments = new Map<string, Recorded<PaymentEvent>[]>();
  for (const event of events) {
    const paymentId = event.streamId.replace(/^payment-/, "");
    const paymentEvents = payments.get(paymentId);
    if (paymentEvents) paymentEvents.push(event);
    else payments.set(paymentId, [event]);
  }
  return payments;
}

async function storedPayments(trx: Transaction<Database>, paymentIds: string[]) {
  const { rows } = await sql<{ payment_id: string; revision: string; state: StoredPaymentState }>`
    select payment_id, revision::text as revision, state from payments
    -- "= any(array(...))" keeps the lookup on the primary key in every plan, even one the server
    -- cached while the table was small (a semi-join on the list would scan it whole).
    where payment_id = any(array(select jsonb_array_elements_text(${JSON.stringify(paymentIds)}::jsonb)::uuid))
  `.execute(trx);
  return new Map(rows.map((row) => [row.payment_id, { revision: BigInt(row.revision), state: fromStored(row.state) }]));
}

/** The rows of the payment's transactions whose API view or the work it awaits differs from before. */
function changedTransactions(paymentId: string, before: PaymentState, after: PaymentState): TransactionRow[] {
  const rows: TransactionRow[] = [];
  for (const id of after.transactions.keys()) {
    const view = toTransactionView(after, id);
    const work = awaitedWork(after, id);
    const unchanged =
      before.transactions.has(id) &&
      JSON.stringify(work) === JSON.stringify(awaitedWork(before, id)) &&
      JSON.stringify(view) === JSON.stringify(toTransactionView(before, id));
    if (!view || unchanged) continue;
    rows.push(transactionRow(paymentId, view, work));
  }
  return rows;
}

/** What the jobs will do with a transaction: resolve it, settle it, or expire it some day. */
function awaitedWork(state: PaymentState, id: string) {
  const transaction = state.transactions.get(id)!;
  const capturable = transaction.status === "approved" && transaction.expiredAt === null && capturableAmount(state, id) > 0;
  return {
    resolver_work: resolverWork(transaction),
    awaiting_settlement: settleable(state, transaction),
    capturable_since: capturable ? (transaction.approvedAt ?? transaction.updatedAt) : null,
  };
}

const transactionRow = (paymentId: string, view: TransactionView, work: ReturnType<typeof awaitedWork>) => ({
  transaction_id: view.id,
  payment_id: paymentId,
  client_id: view.clientId,
  type: view.type,
  status: view.status,
  state: view.state,
  parent_transaction_id: view.parentTransactionId,
  user_id: view.userId,
  processor: view.processor,
  currency: view.currency,
  amount: view.amount,
  reference: view.reference,
  created_at: view.createdAt,
  updated_at: view.updatedAt,
  view,
  host_configuration_id: view.hostConfigurationId,
  ...work,
});

type TransactionRow = ReturnType<typeof transactionRow>;
type PaymentRow = { payment_id: string; client_id: string; revision: string; state: StoredPaymentState };

/**
 * Writes the batch's payments and transactions in one statement. Each set of rows is one JSON
 * parameter, so the statement's text (and prepared plan) is the same whatever the batch's size;
 * read as json, not jsonb, so the server only checks the states and views it stores as text.
 */
async function upsert(trx: Transaction<Database>, payments: PaymentRow[], transactions: TransactionRow[]) {
  if (payments.length === 0) return;
  await sql`
    with upserted_payments as (
      insert into payments (payment_id, client_id, revision, state)
      select * from json_to_recordset(${JSON.stringify(payments)}::json)
        as row(payment_id uuid, client_id uuid, revision bigint, state json)
      on conflict (payment_id) do update set revision = excluded.revision, state = excluded.state
    )
    insert into transactions (transaction_id, payment_id, client_id, type, status, state, parent_transaction_id, user_id,
                              processor, currency, amount, reference, created_at, updated_at, view, host_configuration_id,
                              resolver_work, awaiting_settlement, capturable_since)
    select * from json_to_recordset(${JSON.stringify(transactions)}::json)
      as row(transaction_id uuid, payment_id uuid, client_id uuid, type text, status text, state text,
             parent_transaction_id uuid, user_id text, processor text, currency text, amount bigint, reference text,
             created_at timestamptz, updated_at timestamptz, view json, host_configuration_id uuid, resolver_work text,
             awaiting_settlement boolean, capturable_since timestamptz)
    on conflict (transaction_id) do update
      set status = excluded.status, state = excluded.state, updated_at = excluded.updated_at, view = excluded.view,
          resolver_work = excluded.resolver_work, awaiting_settlement = excluded.awaiting_settlement,
          capturable_since = excluded.capturable_since
  `.execute(trx);
}
