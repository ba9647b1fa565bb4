import { occurredAtOf } from "../audit/event-log.ts";
import { evolve, initialState, type PaymentEvent, paymentStreamId, type TransactionView, toTransactionView } from "../domain/payments/index.ts";
import type { EventStore } from "../eventstore/port.ts";

/**
 * A transaction as it was at `asOf`, folded from its payment stream alone (never the read
 * model); `null` when it did not exist yet. The fold stops at the first event that happened
 * after `asOf`, so the answer is always a state the stream really passed through. "Happened"
 * is the event's own `occurredAt` (the clock that gave the transaction its createdAt and
 * updatedAt, so `asOf=<updatedAt>` shows exactly that version), or when it is missing the
 * time the store recorded it.
 */
export async function transactionAsOf(
  store: EventStore,
  paymentId: string,
  transactionId: string,
  asOf: Date,
): Promise<TransactionView | null> {
  const events = await store.readStream(paymentStreamId(paymentId));
  let state = initialState();
  for (const event of events) {
    if (new Date(occurredAtOf(event)).getTime() > asOf.getTime()) break;
    state = evolve(state, event as unknown as PaymentEvent);
  }
  return toTransactionView(state, transactionId);
}
