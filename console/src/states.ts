import type { PaymentEvent } from "../../src/domain/payments/events.ts";
import { evolve, initialState } from "../../src/domain/payments/state.ts";
import { toTransactionView } from "../../src/domain/payments/view.ts";
import type { LoggedEvent, Transaction } from "./types.ts";

/**
 * The transaction as each event of its stream leaves it (null before it exists), folded here
 * event by event with the ledger's own `evolve`. Asking the API `?asOf=` each event's time
 * instead would give an event the state after every other event of the same millisecond.
 */
export function statesAfterEach(events: readonly LoggedEvent[], transactionId: string): Array<Transaction | null> {
  let state = initialState();
  return events.map((event) => {
    // The events as the ledger stored them: the same input its own fold reads.
    state = evolve(state, { type: event.type, data: event.data } as unknown as PaymentEvent);
    return toTransactionView(state, transactionId);
  });
}
