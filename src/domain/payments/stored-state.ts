import type { PaymentState, TransactionState } from "./state.ts";

// A payment's folded state as the transactions read model stores it (its `payments.state`
// column), and the way back. A state stored before a field of `TransactionState` existed lacks
// it and reads as that field's "none" (`laterFieldDefaults`): a field added later gets its
// default there, or every payment stored before it breaks.

/** The folded state as JSON: its map of transactions becomes a list in initiation order. */
export interface StoredPaymentState {
  rootTransactionId: string | null;
  transactions: StoredTransaction[];
}

/** A limit breach, a not-found's confirmation and a final capture's mark are stored only where there is one. */
type StoredTransaction = Omit<TransactionState, "limitBreach" | "failureConfirmed" | "final"> &
  Partial<Pick<TransactionState, "limitBreach" | "failureConfirmed" | "final">>;

export const toStored = (state: PaymentState): StoredPaymentState => ({
  rootTransactionId: state.rootTransactionId,
  // Without them, a state stored before they were kept equals a replay's (`ledger verify`).
  transactions: [...state.transactions.values()].map(({ limitBreach, failureConfirmed, final, ...transaction }) => ({
    ...transaction,
    ...(limitBreach && { limitBreach }),
    ...(failureConfirmed && { failureConfirmed }),
    ...(final && { final }),
  })),
});

/** States stored before reversals, settlement, expiry, kept limit breaches and confirmed not-founds existed lack their fields: they had none. */
const laterFieldDefaults = {
  approvedLate: null,
  reversalId: null,
  reversed: false,
  settlementId: null,
  expiredAt: null,
  approvedAt: null,
  limitBreach: null,
  failureConfirmed: false,
  final: false,
} as const;

export const fromStored = (stored: StoredPaymentState): PaymentState => ({
  rootTransactionId: stored.rootTransactionId,
  transactions: new Map(stored.transactions.map((transaction) => [transaction.id, { ...laterFieldDefaults, ...transaction }])),
});
