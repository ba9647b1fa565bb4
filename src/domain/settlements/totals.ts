/** What a settlement batch adds up to in one currency; `salesCount`/`salesAmount` count sales and captures. */
export interface SettlementTotals {
  currency: string;
  salesCount: number;
  salesAmount: number;
  refundsCount: number;
  refundsAmount: number;
  /** Sales and captures less refunds: what the processor pays out. */
  netAmount: number;
}

/** One settled sale, capture or refund, as either side of a batch counts it. */
export interface SettledItem {
  type: "sale" | "capture" | "refund";
  currency: string;
  amount: number;
}

/** The totals per currency, sorted by currency, so two sides' totals compare as values. */
export function totalsOf(items: Iterable<SettledItem>): SettlementTotals[] {
  const byCurrency = new Map<string, SettlementTotals>();
  for (const { type, currency, amount } of items) {
    const totals = byCurrency.get(currency) ?? { currency, salesCount: 0, salesAmount: 0, refundsCount: 0, refundsAmount: 0, netAmount: 0 };
    if (type === "refund") {
      totals.refundsCount += 1;
      totals.refundsAmount += amount;
      totals.netAmount -= amount;
    } else {
      totals.salesCount += 1;
      totals.salesAmount += amount;
      totals.netAmount += amount;
    }
    byCurrency.set(currency, totals);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Whether the ledger's and the processor's totals agree, currency by currency. */
export function totalsMatch(ledger: readonly SettlementTotals[], processor: readonly SettlementTotals[]): boolean {
  return JSON.stringify(sorted(ledger)) === JSON.stringify(sorted(processor));
}

const sorted = (totals: readonly SettlementTotals[]) =>
  [...totals]
    .sort((a, b) => a.currency.localeCompare(b.currency))
    .map(({ currency, salesCount, salesAmount, refundsCount, refundsAmount, netAmount }) => ({
      currency,
      salesCount,
      salesAmount,
      refundsCount,
      refundsAmount,
      netAmount,
    }));
