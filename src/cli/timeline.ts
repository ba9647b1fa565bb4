import { occurredAtOf } from "../audit/event-log.ts";
import { evolve, flatTransaction, initialState, type PaymentEvent, stateOf, type TransactionState } from "../domain/payments/index.ts";
import type { RecordedEvent } from "../eventstore/port.ts";
import type { Recorded } from "../eventstore/typed-read.ts";

const HEADER = ["rev", "occurred at", "event", "by", "transaction", "amount", "status", "state", "captured", "refunded"];

/**
 * A payment stream as a table of the states it went through: after each event, the transaction
 * it concerns and (for a follow-up) its parent, as the domain's fold leaves them.
 */
export function paymentTimeline(events: readonly Recorded<PaymentEvent>[]): string[] {
  const rows: string[][] = [HEADER];
  let state = initialState();
  for (const event of events) {
    state = evolve(state, event);
    const transactionId = event.data.transactionId;
    const transaction = typeof transactionId === "string" ? state.transactions.get(transactionId) : undefined;
    const parentId = transaction?.parentTransactionId;
    const parent = parentId ? state.transactions.get(parentId) : undefined;
    rows.push([event.revision.toString(), occurredAtOf(event), event.type, recordedBy(event), ...stateColumns(transaction)]);
    if (parent) rows.push(["", "", "", "", ...stateColumns(parent, "↳ ")]);
  }
  return alignColumns(rows);
}

/** Who recorded the event, from its metadata: a client's API key, the admin, or the service itself (its jobs). */
function recordedBy({ metadata }: RecordedEvent): string {
  const actor = metadata.actor as { role?: string; keyId?: string } | undefined;
  switch (actor?.role) {
    case "client":
      return `client key ${actor.keyId ?? "?"}`;
    case "admin":
      return "admin";
    case "system":
      return "service";
    default:
      return "-";
  }
}

function stateColumns(transaction: TransactionState | undefined, prefix = ""): string[] {
  if (!transaction) return ["-", "", "", "", "", ""];
  const flat = flatTransaction(transaction);
  const reason = flat.declineCode ?? flat.failureReason;
  return [
    `${prefix}${flat.type} ${flat.id}`,
    `${flat.amount} ${flat.currency}`,
    `${flat.status}${reason ? ` (${reason})` : ""}${flat.voided ? ", voided" : ""}`,
    stateOf(transaction),
    String(flat.capturedAmount),
    String(flat.refundedAmount),
  ];
}

function alignColumns(rows: string[][]): string[] {
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join("  ").trimEnd());
}
