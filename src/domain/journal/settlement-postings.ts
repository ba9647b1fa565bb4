import type { Processor } from "../processors.ts";
import type { JournalLine } from "./accounts.ts";
import { entryIdOf, type EventRef, type JournalEntry, linesOf } from "./entries.ts";

/** A closed batch as its entry needs it. */
export interface ClosedBatchForJournal {
  settlementId: string;
  clientId: string;
  processor: Processor;
  /** The processor's totals (SettlementTotals): what it pays out per currency. */
  processorTotals: readonly { currency: string; netAmount: number }[];
  occurredAt: string;
}

/**
 * What the entries of a batch's settled transactions moved from receivable into settled funds,
 * per currency: each transaction's own entry did that when its payment recorded it settled.
 */
export function settledNetOf(entries: Iterable<Pick<JournalEntry, "kind" | "currency" | "lines">>): Map<string, number> {
  const net = new Map<string, number>();
  for (const entry of entries) {
    if (entry.kind !== "transaction_settled") continue;
    const moved = entry.lines.filter((line: JournalLine) => line.account === "settled_funds").reduce((total, line) => total + line.debit - line.credit, 0);
    net.set(entry.currency, (net.get(entry.currency) ?? 0) + moved);
  }
  return net;
}

/**
 * The entries a batch's close posts: per currency, the processor's net less what its settled
 * transactions already moved into settled funds, between settled funds and settlement
 * differences. A matched batch whose transactions all settled posts nothing: its settled
 * transactions' entries moved exactly its net. A transaction the processor left out stays in
 * receivable (it is still owed), so it is no difference.
 */
export function postSettlementClose(batch: ClosedBatchForJournal, settledNet: ReadonlyMap<string, number>, source: EventRef): JournalEntry[] {
  const processorNet = new Map(batch.processorTotals.map((totals) => [totals.currency, totals.netAmount]));
  const currencies = [...new Set([...processorNet.keys(), ...settledNet.keys()])].sort();
  const entries: JournalEntry[] = [];
  for (const currency of currencies) {
    const difference = (processorNet.get(currency) ?? 0) - (settledNet.get(currency) ?? 0);
    if (difference === 0) continue;
    entries.push({
      id: entryIdOf(source.id, entries.length),
      kind: "settlement_difference",
      clientId: batch.clientId,
      processor: batch.processor,
      currency,
      paymentId: null,
      transactionId: null,
      settlementId: batch.settlementId,
      occurredAt: batch.occurredAt,
      eventId: source.id,
      eventType: source.type,
      eventPosition: source.position,
      lines: linesOf(batch.processor, currency, [
        ["settled_funds", difference],
        ["settlement_differences", difference],
      ]),
    });
  }
  return entries;
}
