import type { SafeCard } from "../cards.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { LimitBreach } from "../limits/breach.ts";

/** One stream per payment: the root authorization or sale and every transaction that follows it. */
export const paymentStreamId = (rootTransactionId: string) => `payment-${rootTransactionId}`;

export const transactionTypes = ["authorization", "sale", "capture", "refund", "void"] as const;
export type TransactionType = (typeof transactionTypes)[number];
export type RootTransactionType = Extract<TransactionType, "authorization" | "sale">;

export const declineCodes = [
  "card_declined",
  "insufficient_funds",
  "expired_card",
  "incorrect_cvc",
  "limit_exceeded",
] as const;
export type DeclineCode = (typeof declineCodes)[number];

/**
 * `reversed`: the outcome stayed unknown too long, so the service voided it at the processor.
 * `not_found`: the processor's inquiry found no such transaction once it could no longer act on it.
 * `payment_method_deleted`: its stored card was deleted after its intent was recorded and before
 * its number was decrypted, so nothing was sent to the processor.
 */
export const failureReasons = ["processor_error", "processor_authentication_failed", "reversed", "not_found", "payment_method_deleted"] as const;
export type FailureReason = (typeof failureReasons)[number];

/** The processor's answer, in ISO 8583 style (`00` approved, `05` do not honor...). */
export type ProcessorResponse = {
  code: string;
  message: string;
  authorizationCode: string | null;
  reference: string | null;
};

/** A declined or failed transaction has no authorization code. */
export type UnapprovedProcessorResponse = ProcessorResponse & { authorizationCode: null };

/** Recorded before the processor is called, so a crash in between leaves a pending transaction. */
export type TransactionInitiated = {
  type: "TransactionInitiated.v1";
  data: {
    transactionId: string;
    type: TransactionType;
    amount: number;
    currency: string;
    /** `null` for the root authorization or sale. */
    parentTransactionId: string | null;
    clientId: string;
    userId: string;
    processor: Processor;
    hostConfigurationId: string;
    /** The version of the host configuration this transaction was sent with. */
    hostConfigurationVersion: number;
    /** Only the root carries the card. */
    card: SafeCard | null;
    /** The root's stored card, when it was paid with one (absent otherwise, and before the vault). */
    paymentMethodId?: string;
    reference: string | null;
    metadata: Record<string, string>;
    /** Why a refund was made; `null` for every other type. */
    reason: string | null;
    /** A capture that releases the rest of its authorization once approved (absent before 2026-11-27: not final). */
    final?: boolean;
    occurredAt: string;
  };
};

export type TransactionApproved = {
  type: "TransactionApproved.v1";
  data: { transactionId: string; processorResponse: ProcessorResponse; occurredAt: string };
};

export type TransactionDeclined = {
  type: "TransactionDeclined.v1";
  data: {
    transactionId: string;
    declineCode: DeclineCode;
    /** `null` when the service declined without asking the processor (`limit_exceeded`). */
    processorResponse: UnapprovedProcessorResponse | null;
    /** `limit_exceeded`: the limit the transaction would have broken (absent from declines recorded before 2026-11-27). */
    limitBreach?: LimitBreach;
    occurredAt: string;
  };
};

export type TransactionFailed = {
  type: "TransactionFailed.v1";
  data: {
    transactionId: string;
    reason: FailureReason;
    processorResponse: UnapprovedProcessorResponse | null;
    occurredAt: string;
  };
};

/**
 * The processor approved a transaction the ledger had already recorded failed (or was reversing):
 * the money was taken all the same. The recorded outcome stands; a reversal gives the money back.
 */
export type TransactionApprovedLate = {
  type: "TransactionApprovedLate.v1";
  data: { transactionId: string; processorResponse: ProcessorResponse; occurredAt: string };
};

/** Recorded before the void (`reversalId` is its id at the processor) that reverses the transaction is sent. */
export type TransactionReversalRequested = {
  type: "TransactionReversalRequested.v1";
  data: { transactionId: string; reversalId: string; occurredAt: string };
};

/**
 * The processor holds none of the transaction's money any more: it approved the void, or it
 * showed it never approved the transaction. `processorResponse` is its answer to the void.
 */
export type TransactionReversed = {
  type: "TransactionReversed.v1";
  data: { transactionId: string; reversalId: string; processorResponse: ProcessorResponse | null; occurredAt: string };
};

/** The processor refused the void while it still holds the money: another reversal may be requested. */
export type TransactionReversalRefused = {
  type: "TransactionReversalRefused.v1";
  data: { transactionId: string; reversalId: string; processorResponse: ProcessorResponse | null; occurredAt: string };
};

/**
 * A transaction failed on "not found" was asked about again once the processor's inquiries could
 * no longer lag behind its approvals, and it still did not report it approved: the failure is final.
 */
export type TransactionFailureConfirmed = {
  type: "TransactionFailureConfirmed.v1";
  data: { transactionId: string; occurredAt: string };
};

/** A sale, capture or refund went to the processor in the settlement batch `settlementId`. */
export type TransactionSettled = {
  type: "TransactionSettled.v1";
  data: { transactionId: string; settlementId: string; occurredAt: string };
};

/**
 * An authorization's time to be captured ran out: what was left of it is voided by the void
 * `voidTransactionId`, initiated with this event.
 */
export type AuthorizationExpired = {
  type: "AuthorizationExpired.v1";
  data: { transactionId: string; voidTransactionId: string; occurredAt: string };
};

/**
 * An approved final capture ended its authorization: what was left of it is released by the void
 * `voidTransactionId`, initiated with this event (and with the capture's approval).
 */
export type AuthorizationReleased = {
  type: "AuthorizationReleased.v1";
  data: { transactionId: string; captureTransactionId: string; voidTransactionId: string; occurredAt: string };
};

export type PaymentEvent =
  | TransactionInitiated
  | TransactionApproved
  | TransactionDeclined
  | TransactionFailed
  | TransactionApprovedLate
  | TransactionReversalRequested
  | TransactionReversed
  | TransactionReversalRefused
  | TransactionSettled
  | AuthorizationExpired
  | AuthorizationReleased
  | TransactionFailureConfirmed;

export const paymentEventTypes = [
  "TransactionInitiated.v1",
  "TransactionApproved.v1",
  "TransactionDeclined.v1",
  "TransactionFailed.v1",
  "TransactionApprovedLate.v1",
  "TransactionReversalRequested.v1",
  "TransactionReversed.v1",
  "TransactionReversalRefused.v1",
  "TransactionSettled.v1",
  "AuthorizationExpired.v1",
  "AuthorizationReleased.v1",
  "TransactionFailureConfirmed.v1",
] as const satisfies readonly PaymentEvent["type"][];
