// Copied from the service's src/domain/journal/books.ts by `npm run client:generate`: do not edit.

import type { Processor } from "../processors.js";
import type { JournalPaymentEvent, TransactionType } from "./payment-events.js";

/**
 * What the journal keeps of a payment: enough of each transaction to know what money it moves,
 * folded from the payment's events with the same rules as the payment's own state
 * (src/domain/payments/state.ts): outcomes only decide a pending transaction, a follow-up changes
 * its parent only once approved and only if the parent is, a settlement only marks an approved one.
 */
export interface BookedTransaction {
  type: TransactionType;
  amount: number;
  parentId: string | null;
  status: "pending" | "approved" | "declined" | "failed";
  /** An approved void targets it. */
  voided: boolean;
  settlementId: string | null;
  /** The processor approved it after the ledger recorded it failed, or while reversing it. */
  approvedLate: boolean;
  /** The processor holds none of its money any more. */
  reversed: boolean;
  /** An authorization whose rest a void releases after a final capture, or on expiry (which void, for the entry's kind). */
  release?: { voidId: string; reason: "final_capture" | "expiry" };
}

export interface PaymentBooks {
  clientId: string;
  processor: Processor;
  currency: string;
  transactions: Record<string, BookedTransaction>;
}

const withTransaction = (books: PaymentBooks, id: string, transaction: BookedTransaction): PaymentBooks => ({
  ...books,
  transactions: { ...books.transactions, [id]: transaction },
});

/** The payment's books after `event`; `null` until its root transaction is initiated. */
export function evolveBooks(books: PaymentBooks | null, event: JournalPaymentEvent): PaymentBooks | null {
  if (event.type === "TransactionInitiated.v1") {
    const { transactionId, type, amount, parentTransactionId, clientId, processor, currency } = event.data;
    if (books?.transactions[transactionId]) return books;
    const initiated: BookedTransaction = {
      type,
      amount,
      parentId: parentTransactionId,
      status: "pending",
      voided: false,
      settlementId: null,
      approvedLate: false,
      reversed: false,
    };
    return withTransaction(books ?? { clientId, processor, currency, transactions: {} }, transactionId, initiated);
  }
  const transaction = books?.transactions[event.data.transactionId];
  if (!books || !transaction) return books;
  const id = event.data.transactionId;
  switch (event.type) {
    case "TransactionApprovedLate.v1":
      return withTransaction(books, id, { ...transaction, approvedLate: true });
    case "TransactionReversed.v1":
      return withTransaction(books, id, { ...transaction, reversed: true });
    case "TransactionSettled.v1":
      return transaction.status === "approved" ? withTransaction(books, id, { ...transaction, settlementId: event.data.settlementId }) : books;
    case "AuthorizationExpired.v1":
      return transaction.status === "approved"
        ? withTransaction(books, id, { ...transaction, release: { voidId: event.data.voidTransactionId, reason: "expiry" } })
        : books;
    case "AuthorizationReleased.v1":
      return withTransaction(books, id, { ...transaction, release: { voidId: event.data.voidTransactionId, reason: "final_capture" } });
    case "TransactionReversalRequested.v1":
    case "TransactionReversalRefused.v1":
    case "TransactionFailureConfirmed.v1":
      return books;
    case "TransactionApproved.v1":
    case "TransactionDeclined.v1":
    case "TransactionFailed.v1":
      return transaction.status === "pending" ? decided(books, id, transaction, event) : books;
  }
}

function decided(
  books: PaymentBooks,
  id: string,
  transaction: BookedTransaction,
  event: Extract<JournalPaymentEvent, { type: "TransactionApproved.v1" | "TransactionDeclined.v1" | "TransactionFailed.v1" }>,
): PaymentBooks {
  switch (event.type) {
    case "TransactionDeclined.v1":
      return withTransaction(books, id, { ...transaction, status: "declined" });
    case "TransactionFailed.v1":
      return withTransaction(books, id, { ...transaction, status: "failed" });
    case "TransactionApproved.v1": {
      const approved = withTransaction(books, id, { ...transaction, status: "approved" });
      const parent = transaction.parentId === null ? undefined : books.transactions[transaction.parentId];
      if (transaction.type !== "void" || parent?.status !== "approved") return approved;
      return withTransaction(approved, transaction.parentId!, { ...parent, voided: true });
    }
  }
}

/** What a payment's books add to each account, told on the account's normal side (settlement differences are the batch's). */
export interface PaymentPosition {
  processor_receivable: number;
  sales: number;
  refunds: number;
  settled_funds: number;
  holds: number;
}

const emptyPosition = (): PaymentPosition => ({ processor_receivable: 0, sales: 0, refunds: 0, settled_funds: 0, holds: 0 });

/**
 * Money the processor took for it: approved (and, for a sale or capture, not voided), or approved
 * late and not reversed (a late approval counts until its reversal gives the money back).
 */
const countsAsTaken = (transaction: BookedTransaction): boolean =>
  transaction.status === "approved" ? !transaction.voided : transaction.approvedLate && !transaction.reversed;

/** What an approved authorization still holds: its amount less its approved captures not voided, until a void of it is approved. */
function heldBy(books: PaymentBooks, id: string, authorization: BookedTransaction): number {
  if (authorization.status !== "approved") return countsAsTaken(authorization) ? authorization.amount : 0;
  if (authorization.voided) return 0;
  let captured = 0;
  for (const other of Object.values(books.transactions)) {
    if (other.parentId === id && other.type === "capture" && other.status === "approved" && !other.voided) captured += other.amount;
  }
  return authorization.amount - captured;
}

/**
 * Where the payment's money stands. Per transaction the four money accounts balance:
 * receivable + settled funds + refunds = sales, so the change between two positions is a
 * balanced entry.
 */
export function positionOf(books: PaymentBooks | null): PaymentPosition {
  const position = emptyPosition();
  if (!books) return position;
  for (const [id, transaction] of Object.entries(books.transactions)) {
    const settled = transaction.settlementId !== null;
    switch (transaction.type) {
      case "authorization":
        position.holds += heldBy(books, id, transaction);
        break;
      case "sale":
      case "capture":
        if (!countsAsTaken(transaction)) break;
        position.sales += transaction.amount;
        position[settled ? "settled_funds" : "processor_receivable"] += transaction.amount;
        break;
      case "refund":
        if (!countsAsTaken(transaction)) break;
        position.refunds += transaction.amount;
        position[settled ? "settled_funds" : "processor_receivable"] -= transaction.amount;
        break;
      case "void":
        break;
    }
  }
  return position;
}
