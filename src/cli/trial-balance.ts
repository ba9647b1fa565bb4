import { trialBalanceOf, type TrialBalance } from "../domain/journal/index.ts";
import { journalProjection } from "../projections/journal/journal-projection.ts";
import { journalBalances } from "../projections/journal/queries.ts";
import { verifyReadModel } from "../projections/verify-read-model.ts";
import type { Ledger } from "./connection.ts";
import { count, writeOut } from "./output.ts";
import { withProgress } from "./progress.ts";

export interface TrialBalanceOptions {
  /** Only entries that happened at or before it; now without. */
  asOf?: Date;
  /** How long the journal may take to reach the replay's position. */
  settleSeconds: number;
}

/**
 * Prints the journal's trial balance per currency (every client's books added up), then replays
 * the log into a fresh journal and compares the two. Exit 1 when a currency does not balance or
 * the journal differs from its replay.
 */
export async function trialBalance({ db, store }: Ledger, options: TrialBalanceOptions): Promise<number> {
  const asOf = options.asOf ?? new Date();
  const currencies = trialBalanceOf(await journalBalances(db, { asOf }));
  await writeOut([`trial balance as of ${asOf.toISOString()}`, ...currencies.flatMap(currencyLines)].join("\n") + "\n");
  const { result: verdict, summary } = await withProgress("journal replay", store, (progress) =>
    verifyReadModel({
      db,
      store,
      projection: journalProjection,
      settleTimeoutMs: options.settleSeconds * 1000,
      onProgress: ({ events, last }) => progress.update(events, last?.position ?? null),
    }),
  );
  const unbalanced = currencies.filter((currency) => !currency.balanced).length;
  const lines: string[] = [];
  if (verdict.status === "unsettled") {
    lines.push(`journal: NOT COMPARED: it stayed at position ${verdict.live ?? "(none)"} while the replay reached ${verdict.replayed ?? "(none)"} (${summary}); is the service running and caught up?`);
  } else if (verdict.differences.length === 0) {
    lines.push(`journal: equal to a fresh replay of the log (${summary})`);
  } else {
    lines.push(`journal: DIFFERENT from a fresh replay of the log (${summary}); \`ledger verify\` names the rows`);
    for (const { table, onlyLive, onlyReplay, changed } of verdict.differences) {
      lines.push(`  ${table}: ${onlyLive.count} only in the journal, ${onlyReplay.count} only in the replay, ${changed.count} changed`);
    }
  }
  const different = verdict.status === "unsettled" || verdict.differences.length > 0;
  const problems = unbalanced + (different ? 1 : 0);
  lines.push(problems === 0 ? "trial-balance: ok" : `trial-balance: ${count(problems, "problem")} found`);
  await writeOut(lines.join("\n") + "\n");
  return problems === 0 ? 0 : 1;
}

function currencyLines({ currency, debit, credit, balanced, accounts }: TrialBalance): string[] {
  const width = Math.max(...accounts.map((row) => `${row.processor} ${row.account}`.length), "total".length);
  const amount = (value: number) => (value === 0 ? "" : String(value)).padStart(12);
  return [
    `${currency}${"".padEnd(width - currency.length)} ${"debit".padStart(12)} ${"credit".padStart(12)}`,
    ...accounts.map((row) => `  ${`${row.processor} ${row.account}`.padEnd(width - 2)} ${amount(row.debit)} ${amount(row.credit)}`),
    `  ${"total".padEnd(width - 2)} ${String(debit).padStart(12)} ${String(credit).padStart(12)} ${balanced ? "balanced" : "NOT BALANCED"}`,
  ];
}
