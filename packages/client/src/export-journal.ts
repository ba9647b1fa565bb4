// Copied from the service's src/audit/export-journal.ts by `npm run client:generate`: do not edit.

import {
  balancesOf,
  type JournalEntry,
  type JournalPaymentEvent,
  journalAccounts,
  journalPaymentEventTypes,
  type PaymentBooks,
  postPaymentEvent,
  postSettlementClose,
  settledNetOf,
  type TrialBalance,
  trialBalanceOf,
} from "./domain/journal/index.js";
import { type Processor, processors } from "./domain/processors.js";

/**
 * Recomputes the journal from an NDJSON export of the event log (`ledger export`, or the pages of
 * `GET /v1/events`), offline, with the service's own posting rules (src/domain/journal), and
 * compares its trial balance with one the service served (`GET /v1/journal/trial-balance`, saved
 * as it answered). Lines are taken in the file's order, which is the log's: the journal projection
 * reads them in that order too. Whether the events are the ones recorded is `verifyExport`'s
 * question; this one is whether the served books follow from them.
 *
 * This file imports nothing but the posting rules: the client package ships it with them.
 */

const PAYMENT_STREAM = "payment-";
const SETTLEMENT_STREAM = "settlement-";
const paymentEventTypes = new Set<string>(journalPaymentEventTypes);

interface ExportedEvent {
  id: string;
  streamId: string;
  type: string;
  position: bigint;
  data: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isProcessor = (value: unknown): value is Processor => processors.some((processor) => processor === value);

function parseEvent(line: string): ExportedEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { id, streamId, type, position, data } = value;
  if (typeof id !== "string" || typeof streamId !== "string" || typeof type !== "string" || !isObject(data)) return undefined;
  if (typeof position !== "string" || !/^\d{1,20}$/.test(position)) return undefined;
  return { id, streamId, type, position: BigInt(position), data };
}

/** A closed batch's totals as the close carries them: what the processor pays out per currency. */
function processorTotalsOf(data: Record<string, unknown>): { currency: string; netAmount: number }[] {
  const totals = Array.isArray(data.processorTotals) ? data.processorTotals : [];
  return totals.flatMap((row: unknown) =>
    isObject(row) && typeof row.currency === "string" && typeof row.netAmount === "number" ? [{ currency: row.currency, netAmount: row.netAmount }] : [],
  );
}

/** Folds an export's events, line by line, into the journal the service's projection would hold. */
export function createJournalRecomputer() {
  const books = new Map<string, PaymentBooks | null>();
  /** By batch: its client and processor, from its opening (an older close does not name them). */
  const batches = new Map<string, { clientId: string; processor: Processor }>();
  /** By batch: the entries of the transactions it settled, posted before its close. */
  const settledByBatch = new Map<string, JournalEntry[]>();
  const entries: JournalEntry[] = [];

  function add(line: string): void {
    if (line.trim() === "") return;
    const event = parseEvent(line);
    if (!event) return;
    if (event.streamId.startsWith(PAYMENT_STREAM) && paymentEventTypes.has(event.type)) {
      const paymentId = event.streamId.slice(PAYMENT_STREAM.length);
      const source = { id: event.id, type: event.type, position: event.position, paymentId };
      // The type names one of the shapes the posting rules read; the hash chain (verifyExport) proves it is as recorded.
      const posted = postPaymentEvent(books.get(paymentId) ?? null, { type: event.type, data: event.data } as JournalPaymentEvent, source);
      books.set(paymentId, posted.books);
      if (posted.entry?.kind === "transaction_settled" && posted.entry.settlementId !== null) {
        settledByBatch.set(posted.entry.settlementId, [...(settledByBatch.get(posted.entry.settlementId) ?? []), posted.entry]);
      }
      if (posted.entry) entries.push(posted.entry);
      return;
    }
    if (!event.streamId.startsWith(SETTLEMENT_STREAM)) return;
    const { settlementId, clientId, processor, occurredAt } = event.data;
    if (typeof settlementId !== "string" || typeof occurredAt !== "string") return;
    if ((event.type === "SettlementOpened.v1" || event.type === "SettlementOpened.v2") && typeof clientId === "string" && isProcessor(processor)) {
      batches.set(settlementId, { clientId, processor });
    }
    if (event.type !== "SettlementClosed.v1" && event.type !== "SettlementClosed.v2") return;
    const identity = event.type === "SettlementClosed.v2" && typeof clientId === "string" && isProcessor(processor) ? { clientId, processor } : batches.get(settlementId);
    if (!identity) return;
    const settledNet = settledNetOf(settledByBatch.get(settlementId) ?? []);
    const batch = { settlementId, ...identity, processorTotals: processorTotalsOf(event.data), occurredAt };
    entries.push(...postSettlementClose(batch, settledNet, { id: event.id, type: event.type, position: event.position }));
  }

  /** The trial balance of the entries that happened at or before `asOf`, of one client or (without) of every client. */
  function trialBalance({ asOf, clientId }: { asOf: Date; clientId?: string }): TrialBalance[] {
    const at = asOf.getTime();
    const included = entries.filter((entry) => Date.parse(entry.occurredAt) <= at && (clientId === undefined || entry.clientId === clientId));
    return trialBalanceOf(balancesOf(included.flatMap((entry) => entry.lines.map((line) => ({ ...line, clientId: entry.clientId })))));
  }

  return { add, trialBalance, entries: (): readonly JournalEntry[] => entries };
}

/** A trial balance as `GET /v1/journal/trial-balance` answered it. */
export interface ServedTrialBalance {
  asOf: Date;
  data: TrialBalance[];
}

/** Reads a saved answer of `GET /v1/journal/trial-balance`; a message saying what is wrong when it is not one. */
export function parseServedTrialBalance(text: string): ServedTrialBalance | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (!isObject(value) || typeof value.asOf !== "string" || Number.isNaN(Date.parse(value.asOf)) || !Array.isArray(value.data)) {
    return "not an answer of GET /v1/journal/trial-balance: { asOf, data } expected";
  }
  const data: TrialBalance[] = [];
  for (const currency of value.data as unknown[]) {
    const valid =
      isObject(currency) &&
      typeof currency.currency === "string" &&
      Number.isSafeInteger(currency.debit) &&
      Number.isSafeInteger(currency.credit) &&
      typeof currency.balanced === "boolean" &&
      Array.isArray(currency.accounts) &&
      currency.accounts.every(
        (row: unknown) => isObject(row) && journalAccounts.some((account) => account === row.account) && isProcessor(row.processor) && Number.isSafeInteger(row.debit) && Number.isSafeInteger(row.credit),
      );
    if (!valid) return `a currency of data is not a trial balance: ${JSON.stringify(currency)}`;
    data.push(currency as unknown as TrialBalance);
  }
  return { asOf: new Date(value.asOf), data };
}

/** One figure the served trial balance states otherwise than the export's journal. */
export interface TrialBalanceDifference {
  currency: string;
  /** `processor account`, or `total` for the currency's columns, or `balanced`. */
  row: string;
  served: string;
  recomputed: string;
}

const columns = (row: { debit: number; credit: number } | undefined) => (row ? `debit ${row.debit}, credit ${row.credit}` : "absent");

/** Every figure of `served` that the recomputed trial balance does not state alike, and every row it leaves out. */
export function compareTrialBalances(served: readonly TrialBalance[], recomputed: readonly TrialBalance[]): TrialBalanceDifference[] {
  const differences: TrialBalanceDifference[] = [];
  const currencies = [...new Set([...served, ...recomputed].map((trial) => trial.currency))].sort();
  for (const currency of currencies) {
    const left = served.find((trial) => trial.currency === currency);
    const right = recomputed.find((trial) => trial.currency === currency);
    if (columns(left) !== columns(right)) differences.push({ currency, row: "total", served: columns(left), recomputed: columns(right) });
    if (left && right && left.balanced !== right.balanced) {
      differences.push({ currency, row: "balanced", served: String(left.balanced), recomputed: String(right.balanced) });
    }
    const rowKeys = [...new Set([...(left?.accounts ?? []), ...(right?.accounts ?? [])].map((row) => `${row.processor} ${row.account}`))].sort();
    for (const key of rowKeys) {
      const rowOf = (trial: TrialBalance | undefined) => trial?.accounts.find((row) => `${row.processor} ${row.account}` === key);
      const [was, is] = [columns(rowOf(left)), columns(rowOf(right))];
      if (was !== is) differences.push({ currency, row: key, served: was, recomputed: is });
    }
  }
  return differences;
}
