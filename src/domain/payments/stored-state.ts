import type { LimitBreach } from "../limits/breach.ts";
import type { DeclineCode, FailureReason, ProcessorResponse } from "./events.ts";
import type { PaymentState, TransactionBase, TransactionState, TransactionStatus } from "./state.ts";

// A payment's folded state as the transactions read model stores it (its `payments.state`
// column), and the way back. The stored form is flat, as it was before the state became a union
// by status: every field of every status, "none" where the status has no such field, so states
// stored by earlier versions and by this one are alike. A state stored before a field existed
// lacks it and reads as that field's "none" (`laterFieldDefaults`): a field added later gets its
// default there, or every payment stored before it breaks.

/** The folded state as JSON: its map of transactions becomes a list in initiation order. */
export interface StoredPaymentState {
  rootTransactionId: string | null;
  transactions: StoredTransaction[];
}

/** One transaction with the fields of every status. */
export type FlatTransaction = TransactionBase & {
  status: TransactionStatus;
  declineCode: DeclineCode | null;
  limitBreach: LimitBreach | null;
  failureReason: FailureReason | null;
  processorResponse: ProcessorResponse | null;
  capturedAmount: number;
  refundedAmount: number;
  voided: boolean;
  settledAt: string | null;
  settlementId: string | null;
  expiredAt: string | null;
  approvedAt: string | null;
  failureConfirmed: boolean;
};

/** A limit breach, a not-found's confirmation and a final capture's mark are stored only where there is one. */
type StoredTransaction = Omit<FlatTransaction, "limitBreach" | "failureConfirmed" | "final"> &
  Partial<Pick<FlatTransaction, "limitBreach" | "failureConfirmed" | "final">>;

/** The transaction with every status's fields, "none" where its status has no such field (reports and the stored form). */
export function flatTransaction(transaction: TransactionState): FlatTransaction {
  const approved = transaction.status === "approved" ? transaction : undefined;
  return {
    id: transaction.id,
    type: transaction.type,
    status: transaction.status,
    clientId: transaction.clientId,
    userId: transaction.userId,
    processor: transaction.processor,
    hostConfigurationId: transaction.hostConfigurationId,
    hostConfigurationVersion: transaction.hostConfigurationVersion,
    amount: transaction.amount,
    currency: transaction.currency,
    parentTransactionId: transaction.parentTransactionId,
    card: transaction.card,
    ...(transaction.paymentMethodId !== undefined && { paymentMethodId: transaction.paymentMethodId }),
    declineCode: transaction.status === "declined" ? transaction.declineCode : null,
    limitBreach: transaction.status === "declined" ? transaction.limitBreach : null,
    failureReason: transaction.status === "failed" ? transaction.failureReason : null,
    processorResponse: transaction.status === "pending" ? null : transaction.processorResponse,
    capturedAmount: approved?.capturedAmount ?? 0,
    refundedAmount: approved?.refundedAmount ?? 0,
    voided: approved?.voided ?? false,
    settledAt: approved?.settledAt ?? null,
    settlementId: approved?.settlementId ?? null,
    expiredAt: approved?.expiredAt ?? null,
    approvedAt: approved?.approvedAt ?? null,
    reference: transaction.reference,
    metadata: transaction.metadata,
    reason: transaction.reason,
    final: transaction.final,
    approvedLate: transaction.approvedLate,
    reversalId: transaction.reversalId,
    reversed: transaction.reversed,
    failureConfirmed: transaction.status === "failed" && transaction.failureConfirmed,
    createdAt: transaction.createdAt,
    updatedAt: transaction.updatedAt,
  };
}

export const toStored = (state: PaymentState): StoredPaymentState => ({
  rootTransactionId: state.rootTransactionId,
  // Without them, a state stored before they were kept equals a replay's (`ledger verify`).
  transactions: [...state.transactions.values()].map((transaction) => {
    const { limitBreach, failureConfirmed, final, ...stored } = flatTransaction(transaction);
    return { ...stored, ...(limitBreach && { limitBreach }), ...(failureConfirmed && { failureConfirmed }), ...(final && { final }) };
  }),
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

/** The stored transaction with only its status's fields. */
function fromFlat(flat: FlatTransaction): TransactionState {
  const {
    declineCode,
    limitBreach,
    failureReason,
    processorResponse,
    capturedAmount,
    refundedAmount,
    voided,
    settledAt,
    settlementId,
    expiredAt,
    approvedAt,
    failureConfirmed,
    status,
    ...common
  } = flat;
  switch (status) {
    case "pending":
      return { ...common, status };
    case "approved":
      return {
        ...common,
        status,
        processorResponse: processorResponse!,
        approvedAt,
        capturedAmount,
        refundedAmount,
        voided,
        settledAt,
        settlementId,
        expiredAt,
      };
    case "declined":
      return { ...common, status, declineCode: declineCode!, limitBreach, processorResponse };
    case "failed":
      return { ...common, status, failureReason: failureReason!, processorResponse, failureConfirmed };
  }
}

export const fromStored = (stored: StoredPaymentState): PaymentState => ({
  rootTransactionId: stored.rootTransactionId,
  transactions: new Map(stored.transactions.map((transaction) => [transaction.id, fromFlat({ ...laterFieldDefaults, ...transaction })])),
});
