// Copied from the service's src/domain/journal/balances.ts by `npm run client:generate`: do not edit.

import type { Processor } from "../processors.js";
import { balanceOf, type JournalAccount, journalAccounts, type JournalLine } from "./accounts.js";

/** One account's totals for a client, processor and currency, and its balance on its normal side. */
export interface AccountBalance {
  clientId: string;
  account: JournalAccount;
  processor: Processor;
  currency: string;
  debit: number;
  credit: number;
  balance: number;
}

/** Every account's totals from these lines, sorted by client, currency, processor and account (the accounts in their table's order). */
export function balancesOf(lines: Iterable<JournalLine & { clientId: string }>): AccountBalance[] {
  const byKey = new Map<string, AccountBalance>();
  for (const { clientId, account, processor, currency, debit, credit } of lines) {
    const key = `${clientId}|${currency}|${processor}|${account}`;
    const totals = byKey.get(key) ?? { clientId, account, processor, currency, debit: 0, credit: 0, balance: 0 };
    totals.debit += debit;
    totals.credit += credit;
    byKey.set(key, totals);
  }
  return [...byKey.values()]
    .map((totals) => ({ ...totals, balance: balanceOf(totals.account, totals.debit, totals.credit) }))
    .sort(
      (a, b) =>
        a.clientId.localeCompare(b.clientId) ||
        a.currency.localeCompare(b.currency) ||
        a.processor.localeCompare(b.processor) ||
        journalAccounts.indexOf(a.account) - journalAccounts.indexOf(b.account),
    );
}

/**
 * A currency's trial balance: each account's balance in the debit or the credit column, and the
 * two columns' totals, which are equal when every entry balanced.
 */
export interface TrialBalance {
  currency: string;
  debit: number;
  credit: number;
  balanced: boolean;
  accounts: { account: JournalAccount; processor: Processor; debit: number; credit: number }[];
}

/** The trial balance per currency of these balances (of one client, or of several added up). */
export function trialBalanceOf(balances: readonly AccountBalance[]): TrialBalance[] {
  const byCurrency = new Map<string, Map<string, TrialBalance["accounts"][number]>>();
  for (const { account, processor, currency, debit, credit } of balances) {
    const accounts = byCurrency.get(currency) ?? new Map();
    const key = `${processor}|${account}`;
    const row = accounts.get(key) ?? { account, processor, debit: 0, credit: 0 };
    const net = row.debit - row.credit + debit - credit;
    accounts.set(key, { account, processor, debit: Math.max(net, 0), credit: Math.max(-net, 0) });
    byCurrency.set(currency, accounts);
  }
  return [...byCurrency.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, accounts]) => {
      const rows = [...accounts.values()]
        .filter((row) => row.debit !== 0 || row.credit !== 0)
        .sort((a, b) => a.processor.localeCompare(b.processor) || journalAccounts.indexOf(a.account) - journalAccounts.indexOf(b.account));
      const debit = rows.reduce((total, row) => total + row.debit, 0);
      const credit = rows.reduce((total, row) => total + row.credit, 0);
      return { currency, debit, credit, balanced: debit === credit, accounts: rows };
    });
}
