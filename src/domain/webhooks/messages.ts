import { type PaymentState, type TransactionView, toTransactionView } from "../payments/index.ts";
import type { SettlementView } from "../settlements/view.ts";
import type { WebhookEventType } from "./event-types.ts";

/**
 * What one recorded event tells the merchant: a type, the client it is for, and the object as it
 * stood right after the event. `subjectId` is what per-endpoint ordering is kept on.
 */
export type WebhookMessage =
  | { type: WebhookEventType; clientId: string; subjectId: string; data: { transaction: TransactionView } }
  | { type: WebhookEventType; clientId: string; subjectId: string; data: { settlement: SettlementView } };

/**
 * The messages of one payment event, from the payment before and after it: a transaction that
 * appears is `pending` (recorded before the processor is asked), one whose status changes says
 * its new status, and an authorization that gains `expiredAt` has expired.
 */
export function paymentMessages(before: PaymentState, after: PaymentState): WebhookMessage[] {
  const messages: WebhookMessage[] = [];
  for (const [id, transaction] of after.transactions) {
    const previous = before.transactions.get(id);
    const view = () => toTransactionView(after, id)!;
    const message = (type: WebhookEventType): WebhookMessage => ({
      type,
      clientId: transaction.clientId,
      subjectId: id,
      data: { transaction: view() },
    });
    if (previous?.status !== transaction.status) messages.push(message(`transaction.${transaction.status}`));
    if (transaction.expiredAt !== null && previous?.expiredAt == null) messages.push(message("authorization.expired"));
  }
  return messages;
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
