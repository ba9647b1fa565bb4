import { accept, type Decision, reject } from "../decider.ts";
import type { PaymentEvent, ProcessorResponse } from "./events.ts";
import type { PaymentState, TransactionState } from "./state.ts";

/**
 * Reversals: a void sent to the processor for a transaction whose money the ledger does not
 * count, because its outcome stayed unknown too long or the processor approved it after the
 * ledger had recorded it failed. The intent is recorded before the void is sent.
 */

/** Starts the reversal: recorded before the void `reversalId` is sent to the processor. */
export interface RequestReversal {
  type: "RequestReversal";
  transactionId: string;
  reversalId: string;
  now: string;
}

/**
 * `reversed`: the processor holds none of the transaction's money (it approved the void, or showed
 * it never approved the transaction). `refused`: it refused the void and still holds the money.
 */
export type ReversalResult =
  | { status: "reversed"; processorResponse: ProcessorResponse | null }
  | { status: "refused"; processorResponse: ProcessorResponse | null };

export interface RecordReversal {
  type: "RecordReversal";
  transactionId: string;
  reversalId: string;
  result: ReversalResult;
  now: string;
}

/** What takes money from the card and can be voided at the processor. */
export const isReversible = (transaction: TransactionState): boolean =>
  transaction.type === "authorization" || transaction.type === "sale" || transaction.type === "capture";

/** Money the processor may hold that the ledger does not count: a pending transaction, or a late approval. */
const mayHoldUncountedMoney = (transaction: TransactionState): boolean =>
  transaction.status === "pending" || (transaction.status === "failed" && transaction.approvedLate !== null);

/**
 * What the pending resolver still owes a transaction: ask the processor what became of it, finish
 * or start its reversal, or nothing.
 */
export function resolverWork(transaction: TransactionState): ResolverWork | null {
  if (transaction.reversalId !== null) return "reverse";
  if (transaction.status === "pending") return "inquire";
  if (!transaction.reversed && isReversible(transaction) && mayHoldUncountedMoney(transaction)) return "reverse";
  if (isWatched(transaction)) return "watch";
  return null;
}

/**
 * `watch`: failed on the processor's "not found", which a processor whose inquiries lag behind
 * its approvals may answer all the same; asked again until an answer other than an approval comes
 * at least `PENDING_REVERSAL_AFTER_SECONDS` after the failure (`ConfirmFailure`), so that a late
 * approval is recorded and reversed however long the resolver was kept from asking.
 */
export type ResolverWork = "inquire" | "reverse" | "watch";

/** A watched transaction's failure is its last change (`updatedAt`): nothing else touches a failed one that was never approved. */
const isWatched = (transaction: TransactionState): boolean =>
  transaction.status === "failed" &&
  transaction.failureReason === "not_found" &&
  transaction.approvedLate === null &&
  !transaction.failureConfirmed &&
  isReversible(transaction);

/** Ends the watch of a transaction failed on "not found": asked again late enough, the processor still did not approve it. */
export interface ConfirmFailure {
  type: "ConfirmFailure";
  transactionId: string;
  now: string;
}

export function confirmFailure(command: ConfirmFailure, state: PaymentState): PaymentDecision {
  const transaction = state.transactions.get(command.transactionId);
  if (!transaction) return reject("not_found", "No such transaction.");
  // Confirmed already, or approved late meanwhile (its reversal is owed instead): nothing to add.
  if (!isWatched(transaction)) return accept();
  return accept<PaymentEvent>({
    type: "TransactionFailureConfirmed.v1",
    data: { transactionId: transaction.id, occurredAt: command.now },
  });
}

type PaymentDecision = Decision<PaymentEvent, "not_found" | "invalid_transaction_state">;

export function requestReversal(command: RequestReversal, state: PaymentState): PaymentDecision {
  const transaction = state.transactions.get(command.transactionId);
  if (!transaction) return reject("not_found", "No such transaction.");
  // Another instance (or an earlier pass) got there first: its void is the one that counts.
  if (transaction.reversalId !== null || transaction.reversed) return accept();
  if (!isReversible(transaction) || !mayHoldUncountedMoney(transaction)) {
    return reject("invalid_transaction_state", `The ${transaction.type} is ${transaction.status}: nothing to reverse.`);
  }
  return accept<PaymentEvent>({
    type: "TransactionReversalRequested.v1",
    data: { transactionId: transaction.id, reversalId: command.reversalId, occurredAt: command.now },
  });
}

export function recordReversal(command: RecordReversal, state: PaymentState): PaymentDecision {
  const transaction = state.transactions.get(command.transactionId);
  if (!transaction) return reject("not_found", "No such transaction.");
  // Already recorded, or the answer to a reversal that is not the open one: nothing to add.
  if (transaction.reversalId !== command.reversalId) return accept();
  const { transactionId, reversalId, result, now: occurredAt } = command;
  const { processorResponse } = result;
  if (result.status === "refused") {
    return accept<PaymentEvent>({
      type: "TransactionReversalRefused.v1",
      data: { transactionId, reversalId, processorResponse, occurredAt },
    });
  }
  const reversed: PaymentEvent = {
    type: "TransactionReversed.v1",
    data: { transactionId, reversalId, processorResponse, occurredAt },
  };
  if (transaction.status !== "pending") return accept(reversed);
  return accept<PaymentEvent>(reversed, {
    type: "TransactionFailed.v1",
    data: { transactionId, reason: "reversed", processorResponse: null, occurredAt },
  });
}
