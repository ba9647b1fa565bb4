import { z } from "zod";
import { amountSchema, currencySchema } from "../money.ts";
import type { PaymentState } from "../payments/index.ts";

/** A client's limits in one currency; an absent field is unlimited. Days are UTC days. */
export const currencyLimitSchema = z.strictObject({
  currency: currencySchema,
  maxAmountPerTransaction: amountSchema.optional(),
  dailyAmount: amountSchema.optional(),
  dailyCount: z.number().int().positive().max(1_000_000_000).optional(),
});

export const limitsSchema = z
  .array(currencyLimitSchema)
  .max(200)
  .superRefine((limits, context) => {
    const seen = new Set<string>();
    limits.forEach((limit, index) => {
      if (seen.has(limit.currency)) {
        context.addIssue({ code: "custom", path: [index, "currency"], message: "appears twice" });
      }
      seen.add(limit.currency);
    });
  });

export type CurrencyLimit = z.infer<typeof currencyLimitSchema>;

/** The UTC day a moment falls on: the key of the day's usage. */
export const utcDay = (moment: Date): string => moment.toISOString().slice(0, 10);

/**
 * Whether recording this transaction's outcome gives its payment's reserved amount back: a
 * declined or failed authorization or sale, or an approved void of one that nothing was captured
 * of and no capture is pending on (an expired authorization's captures keep counting). A late approval recorded
 * after the failure gives nothing back (the failure did), unless it came while a reversal was
 * under way: then the failure recorded with the reversal is the one that gives it back.
 */
export function givesLimitBack(state: PaymentState, transactionId: string): boolean {
  const transaction = state.transactions.get(transactionId);
  if (!transaction) return false;
  const isRoot = transaction.parentTransactionId === null;
  if (isRoot) {
    const ended = transaction.status === "declined" || transaction.status === "failed";
    return ended && (transaction.approvedLate === null || transaction.reversed);
  }
  const root = state.rootTransactionId === null ? undefined : state.transactions.get(state.rootTransactionId);
  // A capture still pending may yet be approved: then the authorization counts after all. Its
  // failure is what leaves nothing captured, and the limit sweeper gives the amount back then.
  const capturePending = [...state.transactions.values()].some(
    (other) => other.type === "capture" && other.parentTransactionId === state.rootTransactionId && other.status === "pending",
  );
  return (
    transaction.type === "void" &&
    transaction.status === "approved" &&
    transaction.parentTransactionId === state.rootTransactionId &&
    root?.status === "approved" &&
    root.capturedAmount === 0 &&
    !capturePending
  );
}

/**
 * What recording this transaction's outcome gives back of its payment's reservation without
 * ending it: an approved void of the root authorization after captures (its released rest, or an
 * expiry's) gives back its own amount; the captures keep counting. 0 otherwise.
 */
export function limitReturnedBy(state: PaymentState, transactionId: string): number {
  const transaction = state.transactions.get(transactionId);
  const root = state.rootTransactionId === null ? undefined : state.transactions.get(state.rootTransactionId);
  if (!transaction || !root || transaction.type !== "void" || transaction.status !== "approved") return 0;
  return transaction.parentTransactionId === root.id && root.status === "approved" && root.capturedAmount > 0 ? transaction.amount : 0;
}
