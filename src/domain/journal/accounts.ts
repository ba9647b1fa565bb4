import type { Processor } from "../processors.ts";
/**
 * The journal's accounts (API.md, Journal), each kept per client, processor and currency. A
 * balance is told on its account's normal side: what a debit adds to for a debit account, what a
 * credit adds to for a credit account.
 */
export const journalAccounts = [
  "processor_receivable",
  "sales",
  "refunds",
  "settled_funds",
  "settlement_differences",
  "holds",
  "holds_offset",
] as const;
export type JournalAccount = (typeof journalAccounts)[number];

export type Side = "debit" | "credit";

export const normalSide = {
  processor_receivable: "debit",
  sales: "credit",
  refunds: "debit",
  settled_funds: "debit",
  settlement_differences: "credit",
  holds: "debit",
  holds_offset: "credit",
} as const satisfies Record<JournalAccount, Side>;

/** One side of an entry: an amount on one account, in minor units, on the debit or the credit side (the other is 0). */
export interface JournalLine {
  account: JournalAccount;
  processor: Processor;
  currency: string;
  debit: number;
  credit: number;
}

/**
 * A change of `amount` in an account's balance (told on its normal side) as a line: a debit
 * account grows by a debit, a credit account by a credit. `undefined` when nothing changes.
 */
export function lineOf(account: JournalAccount, processor: Processor, currency: string, amount: number): JournalLine | undefined {
  if (amount === 0) return undefined;
  const growsByDebit = normalSide[account] === "debit";
  const debit = growsByDebit === amount > 0 ? Math.abs(amount) : 0;
  return { account, processor, currency, debit, credit: debit === 0 ? Math.abs(amount) : 0 };
}

/** The balance a set of lines leaves on one account, told on its normal side. */
export const balanceOf = (account: JournalAccount, debit: number, credit: number): number =>
  normalSide[account] === "debit" ? debit - credit : credit - debit;
