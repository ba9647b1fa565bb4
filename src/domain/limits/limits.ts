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
 * What a payment holds of its day's limits: a pending or approved root's amount, until an
 * authorization's rest is released (a void of it, a final capture's, an expiry's): then only its
 * captures that may still hold money (approved and not voided, or pending); nothing once the root
 * is declined, failed or voided. It only falls once the root is recorded, so giving back each fall
 * as it is recorded gives back exactly what stops counting. A failed root holds nothing even while
 * a late approval of it is reversed: the reversal charges no one.
 */
export function limitHeldBy(state: PaymentState): number {
  const root = state.rootTransactionId === null ? undefined : state.transactions.get(state.rootTransactionId);
  if (!root || root.status === "declined" || root.status === "failed") return 0;
  if (root.status === "pending") return root.amount;
  if (!root.voided) return root.amount;
  if (root.type === "sale") return 0;
  return [...state.transactions.values()]
    .filter((capture) => capture.type === "capture" && capture.parentTransactionId === root.id)
    .filter((capture) => capture.status === "pending" || (capture.status === "approved" && !capture.voided))
    .reduce((total, capture) => total + capture.amount, 0);
}
