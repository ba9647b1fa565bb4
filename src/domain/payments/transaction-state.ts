import type { ApprovedTransaction, TransactionState } from "./state.ts";

/** Where a transaction stands now, after everything done to it since (the API's `state`). */
export const transactionStates = [
  "pending",
  "declined",
  "failed",
  "authorized",
  "partially_captured",
  "captured",
  "expired",
  "succeeded",
  "partially_refunded",
  "refunded",
  "voided",
] as const;
export type TransactionStateName = (typeof transactionStates)[number];

/**
 * The `state` of a folded transaction: a pure function of its status and amounts, so the read
 * model, a replay and a point-in-time read agree. `status` is the outcome of the operation
 * itself; until it is approved, that is all there is to say.
 */
export function stateOf(transaction: TransactionState): TransactionStateName {
  if (transaction.status !== "approved") return transaction.status;
  switch (transaction.type) {
    case "authorization":
      return authorizationState(transaction);
    case "sale":
    case "capture":
      return chargeState(transaction);
    case "refund":
    case "void":
      return "succeeded";
  }
}

/**
 * An expired authorization's rest is voided by the expiry itself, so expiry is checked before the
 * void; a void or expiry that releases only the rest (captures kept) leaves nothing held: captured.
 */
function authorizationState({ amount, capturedAmount, voided, expiredAt }: ApprovedTransaction): TransactionStateName {
  if (expiredAt !== null && capturedAmount === 0) return "expired";
  if (voided && capturedAmount === 0) return "voided";
  if (capturedAmount >= amount || ((voided || expiredAt !== null) && capturedAmount > 0)) return "captured";
  if (capturedAmount > 0) return "partially_captured";
  return "authorized";
}

function chargeState({ amount, refundedAmount, voided }: ApprovedTransaction): TransactionStateName {
  if (voided) return "voided";
  if (refundedAmount >= amount) return "refunded";
  if (refundedAmount > 0) return "partially_refunded";
  return "succeeded";
}
