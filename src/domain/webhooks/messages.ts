import { type PaymentState, stateOf, type TransactionState, type TransactionView, toTransactionView } from "../payments/index.ts";
import type { SettlementView } from "../settlements/view.ts";
import type { WebhookEventType } from "./event-types.ts";

/**
 * What one recorded event tells the merchant: a type, the client it is for, and the object as it
 * stood right after the event. `subjectId` is what per-endpoint ordering is kept on.
 */
export type WebhookMessage =
  | { type: WebhookEventType; clientId: string; subjectId: string; data: { transaction: TransactionView } }
  | { type: WebhookEventType; clientId: string; subjectId: string; data: { settlement: SettlementView } };

const expiredAt = (transaction: TransactionState | undefined) => (transaction?.status === "approved" ? transaction.expiredAt : null);
const settledAt = (transaction: TransactionState | undefined) => (transaction?.status === "approved" ? transaction.settledAt : null);

/**
 * The messages of one payment event, from the payment before and after it: a transaction that
 * appears is `pending` (recorded before the processor is asked), one whose status changes says
 * its new status, and an authorization that gains `expiredAt` has expired. A transaction whose
 * status stays but whose `state` changes (captured, refunded, voided, expired) or that is
 * settled is `transaction.updated`: the event is another transaction's outcome, or the batch's.
 * Each message's subject is the transaction it carries, so an endpoint gets a transaction's
 * messages in the order of the events that caused them.
 */
export function paymentMessages(before: PaymentState, after: PaymentState): WebhookMessage[] {
  const outcomes: WebhookMessage[] = [];
  const updates: WebhookMessage[] = [];
  for (const [id, transaction] of after.transactions) {
    const previous = before.transactions.get(id);
    const message = (type: WebhookEventType): WebhookMessage => ({
      type,
      clientId: transaction.clientId,
      subjectId: id,
      data: { transaction: toTransactionView(after, id)! },
    });
    if (previous?.status !== transaction.status) outcomes.push(message(`transaction.${transaction.status}`));
    if (expiredAt(transaction) !== null && expiredAt(previous) === null) outcomes.push(message("authorization.expired"));
    if (previous?.status === transaction.status && (stateOf(previous) !== stateOf(transaction) || settledAt(previous) !== settledAt(transaction))) {
      updates.push(message("transaction.updated"));
    }
  }
  // What happened first, then what it changed.
  return [...outcomes, ...updates];
}

/** A closed batch is `settlement.closed`, and `settlement.mismatched` too when the totals disagree. */
export function settlementMessages(settlement: SettlementView): WebhookMessage[] {
  const message = (type: WebhookEventType): WebhookMessage => ({
    type,
    clientId: settlement.clientId,
    subjectId: settlement.id,
    data: { settlement },
  });
  return settlement.status === "mismatched"
    ? [message("settlement.closed"), message("settlement.mismatched")]
    : [message("settlement.closed")];
}
