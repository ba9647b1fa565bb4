import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.ts";
import { type AccountBalance, balancesOf, debitsOf, creditsOf, type JournalLine, trialBalanceOf } from "../../src/domain/journal/index.ts";
import type { FlatTransaction } from "../../src/domain/payments/stored-state.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import { APPROVED } from "../../src/processors/response-codes.ts";
import { journalProjection } from "../../src/projections/journal/journal-projection.ts";
import { waitUntilApplied } from "../../src/projections/lag.ts";

/** The journal as the read model holds it once the load is over. */
export interface JournalEvidence {
  /** False when the journal had not applied every event the log held 10 s after it was asked. */
  caughtUp: boolean;
  entries: { id: string; clientId: string; currency: string; settlementId: string | null; transactionId: string | null; lines: JournalLine[] }[];
}

export const journalInvariantNames = [
  "journal entries balance, debits equal credits per currency",
  "journal receivable is what the processor shows approved and unsettled",
  "journal holds are what the processor holds",
  "journal settled funds of each batch are its net at the processor",
] as const;

type JournalInvariant = (typeof journalInvariantNames)[number];
interface JournalViolation {
  invariant: JournalInvariant;
  transactionId?: string;
  settlementId?: string;
  detail: string;
}

/** Every entry of the journal, once it holds every event the log held when asked. */
export async function readJournal(db: Kysely<Database>, store: EventStore): Promise<JournalEvidence> {
  const caughtUp = await waitUntilApplied(db, store, journalProjection, 10_000);
  const rows = await db
    .selectFrom("journal_entries")
    .select(["entry_id as id", "client_id as clientId", "currency", "settlement_id as settlementId", "transaction_id as transactionId", "lines"])
    .execute();
  return { caughtUp, entries: rows.map((row) => ({ ...row, lines: row.lines as JournalLine[] })) };
}

/** What the journal's invariants judged: "journal: 61 entries (18 of them a batch's, in 9 batches), in 1 currency". */
export function journalSummary({ entries }: JournalEvidence): string {
  const settled = entries.filter((entry) => entry.settlementId !== null);
  const batches = new Set(settled.map((entry) => entry.settlementId)).size;
  const currencies = new Set(entries.map((entry) => entry.currency)).size;
  return `journal: ${entries.length} entries (${settled.length} of them a batch's, in ${batches} batches), in ${currencies === 1 ? "1 currency" : `${currencies} currencies`}`;
}

const keyOf = (clientId: string, processor: string, currency: string) => `${clientId} ${processor} ${currency}`;

/**
 * API.md's journal invariants, judged against the processor's own record (the simulator's): every
 * entry balances and so does the trial balance of every currency; `processor_receivable` is what
 * the processor shows approved, not voided and not settled (sales and captures less refunds), and
 * `holds` what its authorizations still hold, per client, processor and currency; the settled
 * funds a batch's entries moved are the net of what the processor settled in it.
 */
export function checkJournal(journal: JournalEvidence, records: readonly SimulatedTransaction[], byId: ReadonlyMap<string, FlatTransaction>): JournalViolation[] {
  const violations: JournalViolation[] = [];
  if (!journal.caughtUp) {
    violations.push({ invariant: "journal entries balance, debits equal credits per currency", detail: "the journal had not applied the whole log 10 s after the load: nothing judged" });
    return violations;
  }
  for (const entry of journal.entries) {
    const [debit, credit] = [debitsOf(entry.lines), creditsOf(entry.lines)];
    const currencies = new Set(entry.lines.map((line) => line.currency));
    if (debit === credit && currencies.size === 1 && currencies.has(entry.currency)) continue;
    violations.push({
      invariant: "journal entries balance, debits equal credits per currency",
      ...(entry.transactionId ? { transactionId: entry.transactionId } : {}),
      detail: `entry ${entry.id}: debits ${debit}, credits ${credit}, in ${[...currencies].join(", ")} (entry in ${entry.currency})`,
    });
  }
  const balances = balancesOf(journal.entries.flatMap((entry) => entry.lines.map((line) => ({ ...line, clientId: entry.clientId }))));
  for (const trial of trialBalanceOf(balances).filter((currency) => !currency.balanced)) {
    violations.push({ invariant: "journal entries balance, debits equal credits per currency", detail: `${trial.currency}: the trial balance's debits ${trial.debit}, credits ${trial.credit}` });
  }

  // What the processor shows, per client (the ledger's, of the transaction or of its parent), processor and currency.
  const receivable = new Map<string, number>();
  const held = new Map<string, number>();
  const settledNet = new Map<string, number>();
  for (const record of records) {
    if (record.code !== APPROVED) continue;
    const clientId = (byId.get(record.transactionId) ?? byId.get(record.parentTransactionId ?? ""))?.clientId ?? "(not in the ledger)";
    const key = keyOf(clientId, record.processor, record.currency);
    const signed = record.operation === "refund" ? -record.amount : record.operation === "sale" || record.operation === "capture" ? record.amount : 0;
    if (record.operation === "authorization") held.set(key, (held.get(key) ?? 0) + record.heldAmount);
    if (signed === 0 || record.voided) continue;
    if (record.settlementId === null) receivable.set(key, (receivable.get(key) ?? 0) + signed);
    else settledNet.set(`${record.settlementId} ${record.currency}`, (settledNet.get(`${record.settlementId} ${record.currency}`) ?? 0) + signed);
  }
  const journalOf = (account: AccountBalance["account"]) =>
    new Map(balances.filter((row) => row.account === account).map((row) => [keyOf(row.clientId, row.processor, row.currency), row.balance]));
  const compare = (invariant: JournalInvariant, account: AccountBalance["account"], atProcessor: Map<string, number>, what: string) => {
    const inJournal = journalOf(account);
    for (const key of new Set([...inJournal.keys(), ...atProcessor.keys()])) {
      const [ours, theirs] = [inJournal.get(key) ?? 0, atProcessor.get(key) ?? 0];
      if (ours !== theirs) violations.push({ invariant, detail: `${key}: the journal's ${account} is ${ours}; the processor shows ${theirs} ${what}` });
    }
  };
  compare("journal receivable is what the processor shows approved and unsettled", "processor_receivable", receivable, "approved, not voided and not settled");
  compare("journal holds are what the processor holds", "holds", held, "held by approved authorizations");

  const movedByBatch = new Map<string, number>();
  for (const entry of journal.entries) {
    if (entry.settlementId === null) continue;
    const moved = entry.lines.filter((line) => line.account === "settled_funds").reduce((total, line) => total + line.debit - line.credit, 0);
    const key = `${entry.settlementId} ${entry.currency}`;
    movedByBatch.set(key, (movedByBatch.get(key) ?? 0) + moved);
  }
  for (const key of new Set([...movedByBatch.keys(), ...settledNet.keys()])) {
    const [ours, theirs] = [movedByBatch.get(key) ?? 0, settledNet.get(key) ?? 0];
    if (ours === theirs) continue;
    const [settlementId, currency] = key.split(" ") as [string, string];
    violations.push({
      invariant: "journal settled funds of each batch are its net at the processor",
      settlementId,
      detail: `batch ${settlementId}, ${currency}: its entries moved ${ours} into settled_funds; the processor settled a net of ${theirs} in it`,
    });
  }
  return violations;
}
