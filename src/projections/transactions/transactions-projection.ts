import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import {
  evolve,
  initialState,
  type PaymentEvent,
  paymentEventTypes,
  type PaymentState,
  type TransactionState,
  toTransactionView,
} from "../../domain/payments/index.ts";
import type { RecordedEvent } from "../../eventstore/port.ts";
import type { Projection } from "../projection.ts";

/**
 * One row per transaction, as the API returns it, kept current as its payment moves on (a
 * capture changes its authorization's capturedAmount). Each payment's folded state is kept with
 * the stream revision it reflects, so a replayed event is recognised and skipped.
 */
export const transactionsProjection: Projection = {
  name: "transactions",
  tables: ["payments", "transactions"],
  eventTypes: paymentEventTypes,
  async apply(trx, events) {
    for (const [streamId, streamEvents] of groupByStream(events)) {
      await applyToPayment(trx, streamId.replace(/^payment-/, ""), streamEvents);
    }
  },
};

function groupByStream(events: readonly RecordedEvent[]): Map<string, RecordedEvent[]> {
  const streams = new Map<string, RecordedEvent[]>();
  for (const event of events) streams.set(event.streamId, [...(streams.get(event.streamId) ?? []), event]);
  return streams;
}

async function applyToPayment(trx: Transaction<Database>, paymentId: string, events: RecordedEvent[]) {
  const stored = await trx
    .selectFrom("payments")
    .select([sql<string>`revision::text`.as("revision"), "state"])
    .where("payment_id", "=", paymentId)
    .forUpdate()
    .executeTakeFirst();
  let state = stored ? fromStored(stored.state as StoredPaymentState) : initialState();
  let revision = stored ? BigInt(stored.revision) : -1n;
  for (const event of events) {
    if (event.revision <= revision) continue;
    state = evolve(state, event as unknown as PaymentEvent);
    revision = event.revision;
  }
  const root = state.rootTransactionId ? state.transactions.get(state.rootTransactionId) : undefined;
  if (!root || (stored && BigInt(stored.revision) === revision)) return;

  await trx
    .insertInto("payments")
    .values({ payment_id: paymentId, client_id: root.clientId, revision: revision.toString(), state: json(toStored(state)) })
    .onConflict((conflict) =>
      conflict.column("payment_id").doUpdateSet((eb) => ({ revision: eb.ref("excluded.revision"), state: eb.ref("excluded.state") })),
    )
    .execute();
  for (const transaction of state.transactions.values()) {
    const view = toTransactionView(state, transaction.id);
    if (!view) continue;
    await trx
      .insertInto("transactions")
      .values({
        transaction_id: view.id,
        payment_id: paymentId,
        client_id: view.clientId,
        type: view.type,
        status: view.status,
        user_id: view.userId,
        processor: view.processor,
        currency: view.currency,
        amount: String(view.amount),
        reference: view.reference,
        created_at: new Date(view.createdAt),
        updated_at: new Date(view.updatedAt),
        view: json(view),
      })
      .onConflict((conflict) =>
        conflict.column("transaction_id").doUpdateSet((eb) => ({
          status: eb.ref("excluded.status"),
          updated_at: eb.ref("excluded.updated_at"),
          view: eb.ref("excluded.view"),
        })),
      )
      .execute();
  }
}

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** The folded state as JSON: its map of transactions becomes a list in initiation order. */
interface StoredPaymentState {
  rootTransactionId: string | null;
  transactions: TransactionState[];
}

const toStored = (state: PaymentState): StoredPaymentState => ({
  rootTransactionId: state.rootTransactionId,
  transactions: [...state.transactions.values()],
});

const fromStored = (stored: StoredPaymentState): PaymentState => ({
  rootTransactionId: stored.rootTransactionId,
  transactions: new Map(stored.transactions.map((transaction) => [transaction.id, transaction])),
});
