import type { JournalPaymentEvent } from "./payment-events.ts";
import { evolveBooks, type PaymentBooks, positionOf } from "./books.ts";
import { type EntryKind, entryIdOf, type EventRef, type JournalEntry, linesOf } from "./entries.ts";

/**
 * The entry a payment event posts, from the payment's books before it: the change it makes to
 * where the payment's money stands (receivable, sales, refunds, settled funds, holds). An event
 * that moves no money (an intent, a decline, a failure, a reversal's request...) posts nothing.
 */
export function postPaymentEvent(
  books: PaymentBooks | null,
  event: JournalPaymentEvent,
  source: EventRef & { paymentId: string },
): { books: PaymentBooks | null; entry: JournalEntry | undefined } {
  const after = evolveBooks(books, event);
  if (!after || after === books) return { books: after, entry: undefined };
  const [was, is] = [positionOf(books), positionOf(after)];
  const lines = linesOf(after.processor, after.currency, [
    ["processor_receivable", is.processor_receivable - was.processor_receivable],
    ["settled_funds", is.settled_funds - was.settled_funds],
    ["refunds", is.refunds - was.refunds],
    ["sales", is.sales - was.sales],
    ["holds", is.holds - was.holds],
    ["holds_offset", is.holds - was.holds],
  ]);
  if (lines.length === 0) return { books: after, entry: undefined };
  const { transactionId } = event.data;
  const entry: JournalEntry = {
    id: entryIdOf(source.id, 0),
    kind: kindOf(after, event),
    clientId: after.clientId,
    processor: after.processor,
    currency: after.currency,
    paymentId: source.paymentId,
    transactionId,
    settlementId: event.type === "TransactionSettled.v1" ? event.data.settlementId : null,
    occurredAt: event.data.occurredAt,
    eventId: source.id,
    eventType: source.type,
    eventPosition: source.position,
    lines,
  };
  return { books: after, entry };
}

/** What the event did, for an entry it posts: only approvals, late approvals, reversals and settlements move money. */
function kindOf(books: PaymentBooks, event: JournalPaymentEvent): EntryKind {
  const transaction = books.transactions[event.data.transactionId]!;
  switch (event.type) {
    case "TransactionApprovedLate.v1":
      return "late_approval";
    case "TransactionReversed.v1":
      return "reversal";
    case "TransactionSettled.v1":
      return "transaction_settled";
    case "TransactionApproved.v1":
      if (transaction.type !== "void") return `${transaction.type}_approved`;
      return voidKindOf(books, event.data.transactionId, transaction.parentId);
    case "TransactionInitiated.v1":
    case "TransactionDeclined.v1":
    case "TransactionFailed.v1":
    case "TransactionReversalRequested.v1":
    case "TransactionReversalRefused.v1":
    case "TransactionFailureConfirmed.v1":
    case "AuthorizationExpired.v1":
    case "AuthorizationReleased.v1":
      throw new Error(`${event.type} moves no money, yet changed the balances of transaction ${event.data.transactionId}`);
  }
}

function voidKindOf(books: PaymentBooks, voidId: string, parentId: string | null): EntryKind {
  const parent = parentId === null ? undefined : books.transactions[parentId];
  switch (parent?.type) {
    case "authorization":
      if (parent.release?.voidId !== voidId) return "authorization_voided";
      return parent.release.reason === "expiry" ? "authorization_expired" : "authorization_released";
    case "sale":
      return "sale_voided";
    case "capture":
      return "capture_voided";
    case "refund":
    case "void":
    case undefined:
      throw new Error(`void ${voidId} of no authorization, sale or capture changed the balances`);
  }
}
