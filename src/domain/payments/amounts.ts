import type { TransactionType } from "./events.ts";
import type { PaymentState, TransactionState } from "./state.ts";

/** Approved or still pending: it holds its amount until it is declined or fails. */
export const isOpen = (transaction: TransactionState): boolean =>
  transaction.status === "approved" || transaction.status === "pending";

/** The approved and pending follow-ups of one type that target a transaction. */
export function openChildren(state: PaymentState, parentId: string, type: TransactionType): TransactionState[] {
  return [...state.transactions.values()].filter(
    (child) => child.parentTransactionId === parentId && child.type === type && isOpen(child),
  );
}

const sum = (transactions: readonly TransactionState[]) => transactions.reduce((total, t) => total + t.amount, 0);

/** Voided, or a void of it is pending: nothing else may follow it either way. */
export const isVoidedOrVoiding = (state: PaymentState, id: string): boolean =>
  openChildren(state, id, "void").length > 0;

/** The approved and pending captures of an authorization that still hold their amount: not voided. */
const holdingCaptures = (state: PaymentState, authorizationId: string): TransactionState[] =>
  openChildren(state, authorizationId, "capture").filter((capture) => capture.status !== "approved" || !capture.voided);

const isPending = (transaction: TransactionState) => transaction.status === "pending";

/** The captures of an authorization still waiting for the processor's answer. */
export const pendingCaptures = (state: PaymentState, authorizationId: string): TransactionState[] =>
  openChildren(state, authorizationId, "capture").filter(isPending);

/**
 * The captures of an authorization whose effect on what it holds is not known yet: pending, or
 * with a void pending (a voided capture's amount is held again until the rest is released).
 */
export const unsettledCaptures = (state: PaymentState, authorizationId: string): TransactionState[] =>
  openChildren(state, authorizationId, "capture").filter(
    (capture) => isPending(capture) || openChildren(state, capture.id, "void").some(isPending),
  );

/** A release of the authorization's rest is under way: a final capture or a void of it is pending. */
export const releasePending = (state: PaymentState, authorizationId: string): boolean =>
  pendingCaptures(state, authorizationId).some((capture) => capture.final) ||
  openChildren(state, authorizationId, "void").some(isPending);

/**
 * What the processor still holds of an authorization, as the ledger counts it: an approved one's
 * amount less its approved captures not voided, until a void of it (the whole of it, or the rest
 * after captures) is approved. Pending captures are not taken off: the processor holds their
 * amount until it approves them.
 */
export function heldAmount(state: PaymentState, authorizationId: string): number {
  const authorization = state.transactions.get(authorizationId);
  if (!authorization || authorization.type !== "authorization" || authorization.status !== "approved") return 0;
  return authorization.voided ? 0 : authorization.amount - authorization.capturedAmount;
}

/**
 * What a new capture of this authorization may still take: its amount less every approved and
 * pending capture that is not voided (a capture whose void is still pending counts: the void may
 * fail). 0 when it is not an approved authorization, or it is voided or being voided.
 */
export function capturableAmount(state: PaymentState, authorizationId: string): number {
  const authorization = state.transactions.get(authorizationId);
  if (!authorization || authorization.type !== "authorization" || authorization.status !== "approved") return 0;
  if (isVoidedOrVoiding(state, authorizationId)) return 0;
  return Math.max(0, authorization.amount - sum(holdingCaptures(state, authorizationId)));
}

/**
 * What a new refund of this sale or capture may still take: its amount less every approved and
 * pending refund. 0 when it is not an approved sale or capture, or it is voided or being voided.
 */
export function refundableAmount(state: PaymentState, id: string): number {
  const transaction = state.transactions.get(id);
  if (!transaction || (transaction.type !== "sale" && transaction.type !== "capture")) return 0;
  if (transaction.status !== "approved" || isVoidedOrVoiding(state, id)) return 0;
  return Math.max(0, transaction.amount - sum(openChildren(state, id, "refund")));
}
