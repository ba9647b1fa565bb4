import { formatAmount, shortId } from "./format.ts";
import type { Transaction } from "./types.ts";

/**
 * What an operator may do to a transaction from the console, as API.md allows it: capture what an
 * authorization still holds, refund what a sale or capture has left, void what is not settled.
 * The API decides in the end (a race answers 409 or 422); this only offers what its state allows.
 */
export type ActionName = "capture" | "refund" | "void";

export interface Action {
  name: ActionName;
  /** Capture and refund take an amount, at most `available`; a void releases or cancels `available`. */
  takesAmount: boolean;
  /** In the currency's minor unit: still capturable, still refundable, or what a void gives back. */
  available: number;
}

export function actionsFor(transaction: Transaction): Action[] {
  const { type, state, amount, capturedAmount, refundedAmount, settledAt } = transaction;
  if (type === "authorization" && (state === "authorized" || state === "partially_captured")) {
    const held = amount - capturedAmount;
    return [
      { name: "capture", takesAmount: true, available: held },
      { name: "void", takesAmount: false, available: held },
    ];
  }
  if (type === "sale" || type === "capture") {
    const actions: Action[] = [];
    if (state === "succeeded" || state === "partially_refunded") actions.push({ name: "refund", takesAmount: true, available: amount - refundedAmount });
    if (state === "succeeded" && settledAt === null) actions.push({ name: "void", takesAmount: false, available: amount });
    return actions;
  }
  return [];
}

/** The request body of the action: its amount (capture, refund) in the minor unit. */
export function requestOf(action: ActionName, transactionId: string, amount: number | null, reason: string): object {
  switch (action) {
    case "capture":
      return { transactionId, amount };
    case "refund":
      return reason ? { transactionId, amount, reason } : { transactionId, amount };
    case "void":
      return { transactionId };
  }
}

/** What the action will do, in the words of the confirmation. */
export function consequenceOf(action: Action, transaction: Transaction, amount: number | null): string {
  const money = (value: number) => formatAmount(value, transaction.currency);
  const which = `${transaction.type} …${shortId(transaction.id)}`;
  switch (action.name) {
    case "capture": {
      const rest = action.available - (amount ?? 0);
      return (
        `Capture ${money(amount ?? 0)} of ${which}: the card is charged ${money(amount ?? 0)}. ` +
        (rest > 0 ? `${money(rest)} stays held for a later capture or a void.` : "Nothing stays held.")
      );
    }
    case "refund": {
      const rest = action.available - (amount ?? 0);
      return `Refund ${money(amount ?? 0)} of ${which} to the card. ${money(rest)} stays refundable.`;
    }
    case "void":
      return transaction.type === "authorization"
        ? `Void ${which}: release the ${money(action.available)} still held on the card; nothing more can be captured.` +
            (transaction.capturedAmount > 0 ? ` The captures (${money(transaction.capturedAmount)}) stay as they are.` : "")
        : `Void ${which}: cancel its ${money(action.available)} before settlement; the cardholder is not charged.`;
  }
}
