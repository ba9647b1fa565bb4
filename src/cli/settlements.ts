import Table from "cli-table3";
import type { SettlementTotals } from "../domain/settlements/totals.ts";
import { settlementsOpenedBetween } from "../projections/settlements/queries.ts";
import type { Ledger } from "./connection.ts";
import { writeOut } from "./output.ts";

const DAY_MS = 86_400_000;

const net = (totals: readonly SettlementTotals[]) => totals.map((total) => `${total.netAmount} ${total.currency}`).join(", ") || "0";

/**
 * Prints the batches opened on a UTC day with their reconciliation status; a batch still open
 * or refused by its processor shows as such. Exit 1 when any is mismatched: one to look into.
 */
export async function printSettlements({ db }: Ledger, day: string, { colour }: { colour: boolean }): Promise<number> {
  const from = new Date(`${day}T00:00:00.000Z`);
  const rows = await settlementsOpenedBetween(db, from, new Date(from.getTime() + DAY_MS));
  const table = new Table({
    head: ["batch", "client", "processor", "host configuration", "closed at", "transactions", "ledger net", "processor net", "status"],
    // cli-table3 colours its header and borders wherever it writes unless told not to.
    ...(colour ? {} : { style: { head: [], border: [] } }),
  });
  for (const row of rows) {
    const { view } = row;
    table.push([
      row.settlement_id,
      row.client_id,
      row.processor,
      row.host_configuration_id,
      row.closed_at?.toISOString() ?? "—",
      String(view.transactionCount),
      net(view.totals),
      net(view.processorTotals),
      row.status,
    ]);
  }
  const mismatched = rows.filter((row) => row.status === "mismatched").length;
  await writeOut(`${rows.length} settlement ${rows.length === 1 ? "batch" : "batches"} opened on ${day}, ${mismatched} mismatched\n${rows.length ? `${table.toString()}\n` : ""}`);
  return mismatched > 0 ? 1 : 0;
}
