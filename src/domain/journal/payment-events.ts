import type { Processor } from "../processors.ts";

/**
 * What the posting rules read of a payment's events (src/domain/payments/events.ts): every
 * `PaymentEvent` is one of these, which the projection's call checks, so the rules need nothing
 * else of the service and the client package carries them as they are, to recompute the journal
 * from an export.
 */
export type TransactionType = "authorization" | "sale" | "capture" | "refund" | "void";

interface Fact<Type extends string, Data = object> {
  type: Type;
  data: Data & { transactionId: string; occurredAt: string };
}

export type JournalPaymentEvent =
  | Fact<
      "TransactionInitiated.v1",
      { type: TransactionType; amount: number; currency: string; parentTransactionId: string | null; clientId: string; processor: Processor }
    >
  | Fact<"TransactionApproved.v1">
  | Fact<"TransactionDeclined.v1">
  | Fact<"TransactionFailed.v1">
  | Fact<"TransactionApprovedLate.v1">
  | Fact<"TransactionReversalRequested.v1">
  | Fact<"TransactionReversed.v1">
  | Fact<"TransactionReversalRefused.v1">
  | Fact<"TransactionFailureConfirmed.v1">
  | Fact<"TransactionSettled.v1", { settlementId: string }>
  | Fact<"AuthorizationExpired.v1", { voidTransactionId: string }>
  | Fact<"AuthorizationReleased.v1", { voidTransactionId: string }>;

/** The payment event types the journal reads, each with the shape above. */
export const journalPaymentEventTypes = [
  "TransactionInitiated.v1",
  "TransactionApproved.v1",
  "TransactionDeclined.v1",
  "TransactionFailed.v1",
  "TransactionApprovedLate.v1",
  "TransactionReversalRequested.v1",
  "TransactionReversed.v1",
  "TransactionReversalRefused.v1",
  "TransactionFailureConfirmed.v1",
  "TransactionSettled.v1",
  "AuthorizationExpired.v1",
  "AuthorizationReleased.v1",
] as const satisfies readonly JournalPaymentEvent["type"][];
