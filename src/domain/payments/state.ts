import { cardSummaryOf, type SafeCard } from "../cards.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { LimitBreach } from "../limits/breach.ts";
import type {
  DeclineCode,
  FailureReason,
  PaymentEvent,
  ProcessorResponse,
  TransactionApproved,
  TransactionType,
} from "./events.ts";

export type TransactionStatus = "pending" | "approved" | "declined" | "failed";

/** What every transaction has, whatever became of it. */
export interface TransactionBase {
  id: string;
  type: TransactionType;
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
  reference: string | null;
  metadata: Record<string, string>;
  /** A refund's reason. */
  reason: string | null;
  /** A capture that releases the rest of its authorization once approved. */
  final: boolean;
  /**
   * The processor's approval that came after the ledger recorded the transaction failed (or began
   * reversing it). A reversal starts while the outcome is unknown and runs on whatever outcome is
   * recorded meanwhile, so these three belong to every status.
   */
  approvedLate: ProcessorResponse | null;
  /** The id of the void requested to reverse it, until the processor's answer to it is recorded. */
  reversalId: string | null;
  /** The processor holds none of its money any more (see `TransactionReversed`). */
  reversed: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Sent (or about to be), its outcome not recorded yet. */
export type PendingTransaction = TransactionBase & { status: "pending" };

/** Approved by the processor: the only status that holds money, so the only one that follows-ups, settlement and expiry change. */
export type ApprovedTransaction = TransactionBase & {
  status: "approved";
  processorResponse: ProcessorResponse;
  /** When the approval was recorded; an authorization's capture window starts then (null in a state stored before it was kept). */
  approvedAt: string | null;
  /** Authorization: its approved captures not voided. Sale or capture: its own amount. Otherwise 0. */
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
};

export type DeclinedTransaction = TransactionBase & {
  status: "declined";
  declineCode: DeclineCode;
  /** Declined `limit_exceeded`: the limit it would have broken (null for declines recorded before it was kept). */
  limitBreach: LimitBreach | null;
  processorResponse: ProcessorResponse | null;
};

export type FailedTransaction = TransactionBase & {
  status: "failed";
  failureReason: FailureReason;
  processorResponse: ProcessorResponse | null;
  /** Failed on "not found", and still not approved once the processor's inquiries could no longer lag. */
  failureConfirmed: boolean;
};

/** One transaction of the payment, by where its lifecycle stands: each status has the fields that mean something for it. */
export type TransactionState = PendingTransaction | ApprovedTransaction | DeclinedTransaction | FailedTransaction;

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

/** What an approved follow-up does to its parent (always approved: only an approved transaction is followed). */
function afterChildApproved(parent: ApprovedTransaction, child: ApprovedTransaction, at: string): ApprovedTransaction {
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
function afterCaptureVoided(state: PaymentState, capture: ApprovedTransaction, at: string): TransactionState[] {
  const authorization = capture.parentTransactionId === null ? undefined : state.transactions.get(capture.parentTransactionId);
  if (capture.type !== "capture" || authorization?.status !== "approved") return [];
  return [{ ...authorization, capturedAmount: authorization.capturedAmount - capture.amount, updatedAt: at }];
}

function approve(state: PaymentState, transaction: PendingTransaction, event: TransactionApproved) {
  const { processorResponse, occurredAt } = event.data;
  const capturesItself = transaction.type === "sale" || transaction.type === "capture";
  const approved: ApprovedTransaction = {
    ...transaction,
    status: "approved",
    processorResponse,
    approvedAt: occurredAt,
    capturedAmount: capturesItself ? transaction.amount : 0,
    refundedAmount: 0,
    voided: false,
    settledAt: null,
    settlementId: null,
    expiredAt: null,
    updatedAt: occurredAt,
  };
  const parentId = transaction.parentTransactionId;
  const parent = parentId === null ? undefined : state.transactions.get(parentId);
  if (parent?.status !== "approved") return withTransactions(state, approved);
  const afterParent = afterChildApproved(parent, approved, occurredAt);
  const voidedCapture = approved.type === "void" ? afterCaptureVoided(state, parent, occurredAt) : [];
  return withTransactions(state, approved, afterParent, ...voidedCapture);
}

/** A change that only an approved transaction can take (settlement, expiry); any other is left as it is. */
function whenApproved(state: PaymentState, transaction: TransactionState, change: (approved: ApprovedTransaction) => ApprovedTransaction) {
  return transaction.status === "approved" ? withTransactions(state, change(transaction)) : state;
}

export function evolve(state: PaymentState, event: PaymentEvent): PaymentState {
  if (event.type === "TransactionInitiated.v1") {
    const data = event.data;
    if (state.transactions.has(data.transactionId)) return state;
    const initiated: PendingTransaction = {
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
      card: data.card && cardSummaryOf(data.card, { paidWithMethod: data.paymentMethodId != null }),
      ...(data.paymentMethodId !== undefined && { paymentMethodId: data.paymentMethodId }),
      reference: data.reference,
      metadata: data.metadata,
      reason: data.reason,
      final: data.final ?? false,
      approvedLate: null,
      reversalId: null,
      reversed: false,
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
      return whenApproved(state, transaction, (approved) => ({
        ...approved,
        settledAt: event.data.occurredAt,
        settlementId: event.data.settlementId,
        updatedAt: event.data.occurredAt,
      }));
    case "AuthorizationExpired.v1":
      return whenApproved(state, transaction, (approved) => ({ ...approved, expiredAt: event.data.occurredAt, updatedAt: event.data.occurredAt }));
    case "AuthorizationReleased.v1":
      // The release's void, initiated with it, is what marks the authorization voided once approved.
      return state;
    case "TransactionFailureConfirmed.v1":
      return transaction.status === "failed" ? withTransactions(state, { ...transaction, failureConfirmed: true }) : state;
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
        failureConfirmed: false,
        updatedAt: event.data.occurredAt,
      });
    default:
      // An event type this version does not know changes nothing.
      return state;
  }
}
