import type { SafeCard } from "../cards.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { LimitBreach } from "../limits/usage.ts";
import type {
  DeclineCode,
  FailureReason,
  PaymentEvent,
  ProcessorResponse,
  TransactionApproved,
  TransactionType,
} from "./events.ts";

export type TransactionStatus = "pending" | "approved" | "declined" | "failed";

/** One transaction of the payment: the API transaction object's fields and what only the ledger needs. */
export type TransactionState = {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  clientId: string;
  userId: string;
  processor: Processor;
  hostConfigurationId: string;
  hostConfigurationVersion: number;
  amount: number;
  currency: string;
  parentTransactionId: string | null;
  card: SafeCard | null;
  /** The stored card the root was paid with; absent when it was sent inline (so states stored before the vault need no default). */
  paymentMethodId?: string;
  declineCode: DeclineCode | null;
  /** Declined `limit_exceeded`: the limit it would have broken (null for declines recorded before it was kept). */
  limitBreach: LimitBreach | null;
  failureReason: FailureReason | null;
  processorResponse: ProcessorResponse | null;
  /** Authorization: its approved captures not voided. Approved sale or capture: its own amount. Otherwise 0. */
  capturedAmount: number;
  /** Sale or capture: its approved refunds. */
  refundedAmount: number;
  /** An approved void targets it. */
  voided: boolean;
  /** When the settlement batch `settlementId` took it to the processor. */
  settledAt: string | null;
  settlementId: string | null;
  /** An authorization whose time to be captured ran out: the rest of it was voided. */
  expiredAt: string | null;
  /** When the processor's approval was recorded; an authorization's capture window starts then. */
  approvedAt: string | null;
  reference: string | null;
  metadata: Record<string, string>;
  /** A refund's reason. */
  reason: string | null;
  /** A capture that releases the rest of its authorization once approved. */
  final: boolean;
  /** The processor's approval that came after the ledger recorded the transaction failed (or began reversing it). */
  approvedLate: ProcessorResponse | null;
  /** The id of the void requested to reverse it, until the processor's answer to it is recorded. */
  reversalId: string | null;
  /** The processor holds none of its money any more (see `TransactionReversed`). */
  reversed: boolean;
  /** Failed on "not found", and still not approved once the processor's inquiries could no longer lag. */
  failureConfirmed: boolean;
  createdAt: string;
  updatedAt: string;
};

export type PaymentState = {
  /** `null` until the root authorization or sale is initiated. */
  rootTransactionId: string | null;
  /** Every transaction by id, in the order they were initiated. */
  transactions: ReadonlyMap<string, TransactionState>;
};

export const initialState = (): PaymentState => ({ rootTransactionId: null, transactions: new Map() });

const withTransactions = (state: PaymentState, ...changed: TransactionState[]): PaymentState => {
  const transactions = new Map(state.transactions);
  for (const transaction of changed) transactions.set(transaction.id, transaction);
  return { ...state, transactions };
};

/** What an approved follow-up does to its parent. */
function afterChildApproved(parent: TransactionState, child: TransactionState, at: string): TransactionState {
  switch (child.type) {
    case "capture":
      return { ...parent, capturedAmount: parent.capturedAmount + child.amount, updatedAt: at };
    case "refund":
      return { ...parent, refundedAmount: parent.refundedAmount + child.amount, updatedAt: at };
    case "void":
      return { ...parent, voided: true, updatedAt: at };
    case "authorization":
    case "sale":
      return parent;
  }
}

/** A voided capture no longer counts as captured on its authorization. */
function afterCaptureVoided(state: PaymentState, capture: TransactionState, at: string): TransactionState[] {
  const authorization = capture.parentTransactionId === null ? undefined : state.transactions.get(capture.parentTransactionId);
  if (capture.type !== "capture" || !authorization) return [];
  return [{ ...authorization, capturedAmount: authorization.capturedAmount - capture.amount, updatedAt: at }];
}

function approve(state: PaymentState, transaction: TransactionState, event: TransactionApproved) {
  const { processorResponse, occurredAt } = event.data;
  const capturesItself = transaction.type === "sale" || transaction.type === "capture";
  const approved: TransactionState = {
    ...transaction,
    status: "approved",
    processorResponse,
    capturedAmount: capturesItself ? transaction.amount : transaction.capturedAmount,
    approvedAt: occurredAt,
    updatedAt: occurredAt,
  };
  const parentId = transaction.parentTransactionId;
  const parent = parentId === null ? undefined : state.transactions.get(parentId);
  if (!parent) return withTransactions(state, approved);
  const afterParent = afterChildApproved(parent, approved, occurredAt);
  const voidedCapture = approved.type === "void" ? afterCaptureVoided(state, parent, occurredAt) : [];
  return withTransactions(state, approved, afterParent, ...voidedCapture);
}

export function evolve(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === "TransactionInitiated.v1") {
    const data = event.data;
    if (state.transactions.has(data.transactionId)) return state;
    const initiated: TransactionState = {
      id: data.transactionId,
      type: data.type,
      status: "pending",
      clientId: data.clientId,
      userId: data.userId,
      processor: data.processor,
      hostConfigurationId: data.hostConfigurationId,
      hostConfigurationVersion: data.hostConfigurationVersion,
      amount: data.amount,
      currency: data.currency,
      parentTransactionId: data.parentTransactionId,
      card: data.card,
      ...(data.paymentMethodId !== undefined && { paymentMethodId: data.paymentMethodId }),
      declineCode: null,
      limitBreach: null,
      failureReason: null,
      processorResponse: null,
      capturedAmount: 0,
      refundedAmount: 0,
      voided: false,
      settledAt: null,
      settlementId: null,
      expiredAt: null,
      approvedAt: null,
      reference: data.reference,
      metadata: data.metadata,
      reason: data.reason,
      final: data.final ?? false,
      approvedLate: null,
      reversalId: null,
      reversed: false,
      failureConfirmed: false,
      createdAt: data.occurredAt,
      updatedAt: data.occurredAt,
    };
    return { ...withTransactions(state, initiated), rootTransactionId: state.rootTransactionId ?? initiated.id };
  }

  const transaction = state.transactions.get(event.data.transactionId);
  if (!transaction) return state;
  switch (event.type) {
    case "TransactionApprovedLate.v1":
      return withTransactions(state, { ...transaction, approvedLate: event.data.processorResponse });
    case "TransactionReversalRequested.v1":
      return withTransactions(state, { ...transaction, reversalId: event.data.reversalId });
    case "TransactionReversed.v1":
      return withTransactions(state, { ...transaction, reversalId: null, reversed: true, updatedAt: event.data.occurredAt });
    case "TransactionReversalRefused.v1":
      return withTransactions(state, { ...transaction, reversalId: null });
    case "TransactionSettled.v1":
      return withTransactions(state, {
        ...transaction,
        settledAt: event.data.occurredAt,
        settlementId: event.data.settlementId,
        updatedAt: event.data.occurredAt,
      });
    case "AuthorizationExpired.v1":
      return withTransactions(state, { ...transaction, expiredAt: event.data.occurredAt, updatedAt: event.data.occurredAt });
    case "AuthorizationReleased.v1":
      // The release's void, initiated with it, is what marks the authorization voided once approved.
      return state;
    case "TransactionFailureConfirmed.v1":
      return withTransactions(state, { ...transaction, failureConfirmed: true });
  }
  // Outcomes only ever decide a pending transaction: a terminal status never changes, even on replay.
  if (transaction.status !== "pending") return state;
  switch (event.type) {
    case "TransactionApproved.v1":
      return approve(state, transaction, event);
    case "TransactionDeclined.v1":
      return withTransactions(state, {
        ...transaction,
        status: "declined",
        declineCode: event.data.declineCode,
        limitBreach: event.data.limitBreach ?? null,
        processorResponse: event.data.processorResponse,
        updatedAt: event.data.occurredAt,
      });
    case "TransactionFailed.v1":
      return withTransactions(state, {
        ...transaction,
        status: "failed",
        failureReason: event.data.reason,
        processorResponse: event.data.processorResponse,
        updatedAt: event.data.occurredAt,
      });
    default:
      // An event type this version does not know changes nothing.
      return state;
  }
}
