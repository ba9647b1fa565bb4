import type { SafeCard } from "../cards.ts";
import { withArticle } from "../english.ts";
import { accept, type Decision, reject } from "../decider.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { LimitBreach } from "../limits/breach.ts";
import { isKnownCurrency, isValidAmount } from "../money.ts";
import { capturableAmount, isVoidedOrVoiding, openChildren, pendingCaptures, refundableAmount, releasePending, unsettledCaptures } from "./amounts.ts";
import type {
  DeclineCode,
  FailureReason,
  PaymentEvent,
  ProcessorResponse,
  RootTransactionType,
  TransactionInitiated,
  UnapprovedProcessorResponse,
} from "./events.ts";
import {
  type ConfirmFailure,
  confirmFailure,
  type RecordReversal,
  recordReversal,
  type RequestReversal,
  requestReversal,
} from "./reversal.ts";
import { type ApprovedTransaction, evolve, type PaymentState, type TransactionState } from "./state.ts";

// --- commands --------------------------------------------------------------------------------

/** Starts a payment: only on an empty stream. */
export interface InitiateRoot {
  type: "InitiateTransaction";
  transactionType: RootTransactionType;
  transactionId: string;
  amount: number;
  currency: string;
  clientId: string;
  userId: string;
  processor: Processor;
  hostConfigurationId: string;
  hostConfigurationVersion: number;
  card: SafeCard;
  /** The stored card it is paid with, if any. */
  paymentMethodId?: string | null;
  reference: string | null;
  metadata: Record<string, string>;
  now: string;
}

/**
 * A capture, refund or void of a transaction in this payment. The currency, user, processor and
 * host configuration are the parent's; `clientId` must be the parent's too (else `not_found`).
 */
interface InitiateFollowUp {
  type: "InitiateTransaction";
  transactionId: string;
  parentTransactionId: string;
  clientId: string;
  /** The host configuration version the processor call will use. */
  hostConfigurationVersion: number;
  reference?: string | null;
  metadata?: Record<string, string>;
  now: string;
}

export interface InitiateCapture extends InitiateFollowUp {
  transactionType: "capture";
  /** `undefined`: everything still capturable. */
  amount?: number;
  /** Releases what is left of the authorization once this capture is approved. */
  final?: boolean;
}

export interface InitiateRefund extends InitiateFollowUp {
  transactionType: "refund";
  /** `undefined`: everything still refundable. */
  amount?: number;
  reason?: string | null;
}

/**
 * A void has no amount of its own: it records all of its parent still open, which for an
 * authorization with captures is the uncaptured rest it releases.
 */
export interface InitiateVoid extends InitiateFollowUp {
  transactionType: "void";
}

export type InitiateTransaction = InitiateRoot | InitiateCapture | InitiateRefund | InitiateVoid;

/** A decline the processor gave; `limit_exceeded` is the service's own. */
type ProcessorDeclineCode = Exclude<DeclineCode, "limit_exceeded">;

export type Outcome =
  | { status: "approved"; processorResponse: ProcessorResponse }
  | { status: "declined"; declineCode: ProcessorDeclineCode; processorResponse: UnapprovedProcessorResponse | null }
  | { status: "declined"; declineCode: "limit_exceeded"; processorResponse: null; limitBreach: LimitBreach }
  | { status: "failed"; reason: FailureReason; processorResponse: UnapprovedProcessorResponse | null };

/** The processor's answer, or the service's own decline (`limit_exceeded`), for a pending transaction. */
export interface RecordOutcome {
  type: "RecordOutcome";
  transactionId: string;
  outcome: Outcome;
  /**
   * The id of the void that releases the rest of the authorization when this is the approval of a
   * final capture; initiated in the same append, so it is decided exactly once.
   */
  releaseTransactionId?: string;
  now: string;
}

/** Records that the processor settled an approved sale, capture or refund in a settlement batch. */
export interface SettleTransaction {
  type: "SettleTransaction";
  transactionId: string;
  settlementId: string;
  now: string;
}

/**
 * Ends an approved authorization's time to be captured: what is left of it is voided by a void
 * `voidTransactionId`, initiated in the same append, so it is sent exactly once.
 */
export interface ExpireAuthorization {
  type: "ExpireAuthorization";
  transactionId: string;
  voidTransactionId: string;
  /** The host configuration version the void will be sent with. */
  hostConfigurationVersion: number;
  now: string;
}

export type PaymentCommand =
  | InitiateTransaction
  | RecordOutcome
  | RequestReversal
  | RecordReversal
  | ConfirmFailure
  | SettleTransaction
  | ExpireAuthorization;

/** `validation_error`: an amount or currency a request schema should already have refused. */
export type PaymentFailure =
  | "already_exists"
  | "not_found"
  | "invalid_transaction_state"
  | "amount_exceeds_capturable"
  | "amount_exceeds_refundable"
  | "validation_error";

type PaymentDecision = Decision<PaymentEvent, PaymentFailure>;

// --- initiate --------------------------------------------------------------------------------

function initiateRoot(command: InitiateRoot, state: PaymentState): PaymentDecision {
  if (state.rootTransactionId !== null) return reject("already_exists", "The payment already exists.");
  if (!isValidAmount(command.amount)) return reject("validation_error", `Invalid amount: ${command.amount}.`);
  if (!isKnownCurrency(command.currency)) return reject("validation_error", `Unknown currency: ${command.currency}.`);
  return accept<PaymentEvent>({
    type: "TransactionInitiated.v1",
    data: {
      transactionId: command.transactionId,
      type: command.transactionType,
      amount: command.amount,
      currency: command.currency,
      parentTransactionId: null,
      clientId: command.clientId,
      userId: command.userId,
      processor: command.processor,
      hostConfigurationId: command.hostConfigurationId,
      hostConfigurationVersion: command.hostConfigurationVersion,
      card: command.card,
      ...(command.paymentMethodId && { paymentMethodId: command.paymentMethodId }),
      reference: command.reference,
      metadata: command.metadata,
      reason: null,
      occurredAt: command.now,
    },
  });
}

const followUpInitiated = (
  command: InitiateCapture | InitiateRefund | InitiateVoid,
  parent: TransactionState,
  amount: number,
): TransactionInitiated => ({
  type: "TransactionInitiated.v1",
  data: {
    transactionId: command.transactionId,
    type: command.transactionType,
    amount,
    currency: parent.currency,
    parentTransactionId: parent.id,
    clientId: parent.clientId,
    userId: parent.userId,
    processor: parent.processor,
    hostConfigurationId: parent.hostConfigurationId,
    hostConfigurationVersion: command.hostConfigurationVersion,
    card: null,
    reference: command.reference ?? null,
    metadata: command.metadata ?? {},
    reason: command.transactionType === "refund" ? (command.reason ?? null) : null,
    ...(command.transactionType === "capture" && command.final === true && { final: true }),
    occurredAt: command.now,
  },
});

/** Only an approved transaction that is not voided, nor being voided, nor expired, can be followed. */
function followable(state: PaymentState, parent: TransactionState): { parent: ApprovedTransaction } | { refusal: PaymentDecision } {
  if (parent.status !== "approved") {
    return { refusal: reject("invalid_transaction_state", `The ${parent.type} is ${parent.status}.`) };
  }
  if (isVoidedOrVoiding(state, parent.id)) {
    return { refusal: reject("invalid_transaction_state", `The ${parent.type} is voided or being voided.`) };
  }
  if (parent.expiredAt !== null) return { refusal: reject("invalid_transaction_state", `The ${parent.type} has expired.`) };
  return { parent };
}

function capture(command: InitiateCapture, state: PaymentState, parent: TransactionState): PaymentDecision {
  if (parent.type !== "authorization") {
    return reject("invalid_transaction_state", `Only an authorization can be captured, not ${withArticle(parent.type)}.`);
  }
  const followed = followable(state, parent);
  if ("refusal" in followed) return followed.refusal;
  if (command.amount !== undefined && !isValidAmount(command.amount)) {
    return reject("validation_error", `Invalid amount: ${command.amount}.`);
  }
  // A release counts on knowing every capture's outcome: the rest it lets go is exact, never an
  // amount a pending capture (or a capture's pending void) might still leave held or take.
  if (pendingCaptures(state, parent.id).some((other) => other.final)) {
    return reject("invalid_transaction_state", "A final capture of the authorization is pending.");
  }
  if (command.final === true && unsettledCaptures(state, parent.id).length > 0) {
    return reject("invalid_transaction_state", "A capture of the authorization, or its void, is pending; a final capture waits for its answer.");
  }
  const capturable = capturableAmount(state, parent.id);
  if (capturable === 0) return reject("amount_exceeds_capturable", "Nothing is left to capture.");
  const amount = command.amount ?? capturable;
  if (amount > capturable) {
    return reject("amount_exceeds_capturable", `At most ${capturable} can still be captured.`);
  }
  return accept<PaymentEvent>(followUpInitiated(command, parent, amount));
}

function refund(command: InitiateRefund, state: PaymentState, parent: TransactionState): PaymentDecision {
  if (parent.type !== "sale" && parent.type !== "capture") {
    return reject("invalid_transaction_state", `Only a sale or a capture can be refunded, not ${withArticle(parent.type)}.`);
  }
  const followed = followable(state, parent);
  if ("refusal" in followed) return followed.refusal;
  if (command.amount !== undefined && !isValidAmount(command.amount)) {
    return reject("validation_error", `Invalid amount: ${command.amount}.`);
  }
  const refundable = refundableAmount(state, parent.id);
  if (refundable === 0) return reject("amount_exceeds_refundable", "Nothing is left to refund.");
  const amount = command.amount ?? refundable;
  if (amount > refundable) {
    return reject("amount_exceeds_refundable", `At most ${refundable} can still be refunded.`);
  }
  return accept<PaymentEvent>(followUpInitiated(command, parent, amount));
}

function voidOf(command: InitiateVoid, state: PaymentState, parent: TransactionState): PaymentDecision {
  if (parent.type === "refund" || parent.type === "void") {
    return reject("invalid_transaction_state", `A ${parent.type} cannot be voided.`);
  }
  const followed = followable(state, parent);
  if ("refusal" in followed) return followed.refusal;
  if (parent.type === "authorization") {
    // The rest is exact only once every capture is answered (see `capture`).
    if (unsettledCaptures(state, parent.id).length > 0) {
      return reject("invalid_transaction_state", "A capture of the authorization, or its void, is pending; void the rest once it is answered.");
    }
    const rest = capturableAmount(state, parent.id);
    if (rest === 0) return reject("invalid_transaction_state", "Nothing of the authorization is left to capture.");
    return accept<PaymentEvent>(followUpInitiated(command, parent, rest));
  }
  if (followed.parent.settledAt !== null) return reject("invalid_transaction_state", `The ${parent.type} is settled.`);
  // A capture's void gives its amount back to the authorization's hold: never while its rest is being released.
  if (parent.type === "capture" && parent.parentTransactionId !== null && releasePending(state, parent.parentTransactionId)) {
    return reject("invalid_transaction_state", "The release of the authorization's rest is pending; void the capture once it is answered.");
  }
  if (openChildren(state, parent.id, "refund").length > 0) {
    return reject("invalid_transaction_state", `The ${parent.type} has refunds.`);
  }
  // Nothing of the sale or capture is refunded (above), so its amount is exactly what the void releases.
  return accept<PaymentEvent>(followUpInitiated(command, parent, parent.amount));
}

const isRoot = (command: InitiateTransaction): command is InitiateRoot =>
  command.transactionType === "authorization" || command.transactionType === "sale";

function initiate(command: InitiateTransaction, state: PaymentState): PaymentDecision {
  if (isRoot(command)) return initiateRoot(command, state);
  if (state.rootTransactionId === null) return reject("not_found", "No such transaction.");
  if (state.transactions.has(command.transactionId)) {
    return reject("already_exists", "A transaction with this id already exists.");
  }
  const parent = state.transactions.get(command.parentTransactionId);
  // Another client's transaction does not exist for this one.
  if (!parent || parent.clientId !== command.clientId) return reject("not_found", "No such transaction.");
  switch (command.transactionType) {
    case "capture":
      return capture(command, state, parent);
    case "refund":
      return refund(command, state, parent);
    case "void":
      return voidOf(command, state, parent);
  }
}

// --- outcomes --------------------------------------------------------------------------------

function sameOutcome(transaction: TransactionState, outcome: Outcome): boolean {
  switch (transaction.status) {
    case "pending":
      return false;
    case "approved":
      return outcome.status === "approved";
    case "declined":
      return outcome.status === "declined" && transaction.declineCode === outcome.declineCode;
    case "failed":
      return outcome.status === "failed" && transaction.failureReason === outcome.reason;
  }
}

/**
 * An approval of a transaction the ledger already recorded failed, or is reversing: the money was
 * taken all the same. The fact is recorded once; the recorded outcome stands and the pending
 * resolver reverses it (`resolverWork`).
 */
function lateApproval(transaction: TransactionState, command: RecordOutcome): PaymentDecision | null {
  const { outcome } = command;
  if (outcome.status !== "approved") return null;
  if (transaction.status !== "failed" && transaction.reversalId === null) return null;
  if (transaction.approvedLate !== null) return accept();
  return accept<PaymentEvent>({
    type: "TransactionApprovedLate.v1",
    data: { transactionId: transaction.id, processorResponse: outcome.processorResponse, occurredAt: command.now },
  });
}

function decideOutcome(command: RecordOutcome, state: PaymentState): PaymentDecision {
  const transaction = state.transactions.get(command.transactionId);
  if (!transaction) return reject("not_found", "No such transaction.");
  const late = lateApproval(transaction, command);
  if (late) return late;
  if (transaction.status !== "pending") {
    // A retried resolution of the same answer records nothing; the first processor response stands.
    if (sameOutcome(transaction, command.outcome)) return accept();
    return reject("invalid_transaction_state", `The ${transaction.type} is already ${transaction.status}.`);
  }
  const { transactionId, outcome, now: occurredAt } = command;
  switch (outcome.status) {
    case "approved": {
      const approved: PaymentEvent = {
        type: "TransactionApproved.v1",
        data: { transactionId, processorResponse: outcome.processorResponse, occurredAt },
      };
      return accept<PaymentEvent>(approved, ...releaseAfterFinalCapture(command, state, transaction, approved));
    }
    case "declined":
      return accept<PaymentEvent>({
        type: "TransactionDeclined.v1",
        data: {
          transactionId,
          declineCode: outcome.declineCode,
          processorResponse: outcome.processorResponse,
          ...(outcome.declineCode === "limit_exceeded" && { limitBreach: outcome.limitBreach }),
          occurredAt,
        },
      });
    case "failed":
      return accept<PaymentEvent>({
        type: "TransactionFailed.v1",
        data: { transactionId, reason: outcome.reason, processorResponse: outcome.processorResponse, occurredAt },
      });
  }
}

/**
 * An approved final capture releases what is left of its authorization: the release's void is
 * initiated with the approval, so however often the outcome is recorded it is decided once.
 */
function releaseAfterFinalCapture(
  command: RecordOutcome,
  state: PaymentState,
  capture: TransactionState,
  approved: PaymentEvent,
): PaymentEvent[] {
  if (capture.type !== "capture" || !capture.final || capture.parentTransactionId === null) return [];
  const authorization = state.transactions.get(capture.parentTransactionId);
  if (!authorization) return [];
  const rest = capturableAmount(evolve(state, approved), authorization.id);
  if (rest === 0) return [];
  const voidTransactionId = command.releaseTransactionId;
  if (voidTransactionId === undefined) throw new Error("recording a final capture's approval needs the release's transaction id");
  return [
    {
      type: "AuthorizationReleased.v1",
      data: { transactionId: authorization.id, captureTransactionId: capture.id, voidTransactionId, occurredAt: command.now },
    },
    followUpInitiated(
      {
        type: "InitiateTransaction",
        transactionType: "void",
        transactionId: voidTransactionId,
        parentTransactionId: authorization.id,
        clientId: authorization.clientId,
        hostConfigurationVersion: capture.hostConfigurationVersion,
        now: command.now,
      },
      authorization,
      rest,
    ),
  ];
}

// --- settlement and expiry -------------------------------------------------------------------

/** What a settlement batch takes: an approved sale, capture or refund, not voided nor being voided, not settled yet. */
export const settleable = (state: PaymentState, transaction: TransactionState): boolean =>
  (transaction.type === "sale" || transaction.type === "capture" || transaction.type === "refund") &&
  transaction.status === "approved" &&
  transaction.settlementId === null &&
  !isVoidedOrVoiding(state, transaction.id);

function settle(command: SettleTransaction, state: PaymentState): PaymentDecision {
  const transaction = state.transactions.get(command.transactionId);
  if (!transaction) return reject("not_found", "No such transaction.");
  const settlementId = transaction.status === "approved" ? transaction.settlementId : null;
  if (settlementId === command.settlementId) return accept();
  if (settlementId !== null) return reject("invalid_transaction_state", `The ${transaction.type} is settled.`);
  // The processor settled it: a void still pending will be refused there (or never reached it).
  const settles = transaction.type === "sale" || transaction.type === "capture" || transaction.type === "refund";
  const voided = transaction.status === "approved" && transaction.voided;
  if (!settles || transaction.status !== "approved" || voided) {
    return reject("invalid_transaction_state", `The ${transaction.type} is ${transaction.status}${voided ? " and voided" : ""}: no batch settles it.`);
  }
  return accept<PaymentEvent>({
    type: "TransactionSettled.v1",
    data: { transactionId: transaction.id, settlementId: command.settlementId, occurredAt: command.now },
  });
}

function expire(command: ExpireAuthorization, state: PaymentState): PaymentDecision {
  const authorization = state.transactions.get(command.transactionId);
  if (!authorization || authorization.type !== "authorization") return reject("not_found", "No such authorization.");
  if (authorization.status === "approved" && authorization.expiredAt !== null) return reject("invalid_transaction_state", "The authorization has expired already.");
  // As for any release (see `capture`): the rest is exact only once every capture is answered.
  // The expiry waits for them; a capture that never reached the processor leaves its amount held.
  if (unsettledCaptures(state, authorization.id).length > 0) {
    return reject("invalid_transaction_state", "A capture of the authorization, or its void, is pending; it expires once that is answered.");
  }
  const rest = capturableAmount(state, authorization.id);
  if (rest === 0) return reject("invalid_transaction_state", "Nothing of the authorization is left to expire.");
  return accept<PaymentEvent>(
    {
      type: "AuthorizationExpired.v1",
      data: { transactionId: authorization.id, voidTransactionId: command.voidTransactionId, occurredAt: command.now },
    },
    followUpInitiated(
      {
        type: "InitiateTransaction",
        transactionType: "void",
        transactionId: command.voidTransactionId,
        parentTransactionId: authorization.id,
        clientId: authorization.clientId,
        hostConfigurationVersion: command.hostConfigurationVersion,
        now: command.now,
      },
      authorization,
      rest,
    ),
  );
}

export function decide(command: PaymentCommand, state: PaymentState): PaymentDecision {
  switch (command.type) {
    case "InitiateTransaction":
      return initiate(command, state);
    case "RecordOutcome":
      return decideOutcome(command, state);
    case "RequestReversal":
      return requestReversal(command, state);
    case "RecordReversal":
      return recordReversal(command, state);
    case "ConfirmFailure":
      return confirmFailure(command, state);
    case "SettleTransaction":
      return settle(command, state);
    case "ExpireAuthorization":
      return expire(command, state);
  }
}
