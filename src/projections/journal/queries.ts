import { type Kysely, sql } from "kysely";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { Database } from "../../db/schema.ts";
import { type AccountBalance, balancesOf, type EntryKind, type JournalAccount, type JournalLine } from "../../domain/journal/index.ts";

/** An entry as the journal's read model answers it (the event's position as text: it outgrows a JSON number). */
export interface JournalEntryView {
  id: string;
  kind: EntryKind;
  clientId: string;
  processor: Processor;
  currency: string;
  paymentId: string | null;
  transactionId: string | null;
  settlementId: string | null;
  occurredAt: string;
  eventId: string;
  eventType: string;
  eventPosition: string;
  lines: JournalLine[];
}

export interface EntryFilter {
  clientId?: string | undefined;
  processor?: Processor | undefined;
  currency?: string | undefined;
  account?: JournalAccount | undefined;
  paymentId?: string | undefined;
  transactionId?: string | undefined;
  settlementId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** A page of entries, newest first by the position of the event that posted them: `limit + 1` rows after the cursor's. */
export async function journalEntries(
  db: Kysely<Database>,
  filter: EntryFilter,
  after: { position: string; entryId: string } | undefined,
  limit: number,
): Promise<JournalEntryView[]> {
  const { clientId, processor, currency, account, paymentId, transactionId, settlementId, from, to } = filter;
  const rows = await db
    .selectFrom("journal_entries")
    .selectAll()
    .$if(clientId !== undefined, (q) => q.where("client_id", "=", clientId!))
    .$if(processor !== undefined, (q) => q.where("processor", "=", processor!))
    .$if(currency !== undefined, (q) => q.where("currency", "=", currency!))
    .$if(paymentId !== undefined, (q) => q.where("payment_id", "=", paymentId!))
    .$if(transactionId !== undefined, (q) => q.where("transaction_id", "=", transactionId!))
    .$if(settlementId !== undefined, (q) => q.where("settlement_id", "=", settlementId!))
    .$if(from !== undefined, (q) => q.where("occurred_at", ">=", from!))
    .$if(to !== undefined, (q) => q.where("occurred_at", "<=", to!))
    .$if(account !== undefined, (q) =>
      q.where(sql<boolean>`exists (select from json_array_elements(lines) line where line->>'account' = ${account!})`),
    )
    .$if(after !== undefined, (q) => q.where(sql<boolean>`(event_position, entry_id) < (${after!.position}::bigint, ${after!.entryId}::uuid)`))
    .orderBy("event_position", "desc")
    .orderBy("entry_id", "desc")
    .limit(limit + 1)
    .execute();
  return rows.map((row) => ({
    id: row.entry_id,
    kind: row.kind as EntryKind,
    clientId: row.client_id,
    processor: row.processor as Processor,
    currency: row.currency,
    paymentId: row.payment_id,
    transactionId: row.transaction_id,
    settlementId: row.settlement_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    eventId: row.event_id,
    eventType: row.event_type,
    eventPosition: String(row.event_position),
    lines: row.lines,
  }));
}

export interface BalanceFilter {
  clientId?: string | undefined;
  processor?: Processor | undefined;
  currency?: string | undefined;
  /** Only entries that happened at or before it. */
  asOf?: Date | undefined;
}

/** Every account's totals, folded from the entries up to `asOf` (all of them without). */
export async function journalBalances(db: Kysely<Database>, filter: BalanceFilter): Promise<AccountBalance[]> {
  const { clientId, processor, currency, asOf } = filter;
  const conditions = [
    clientId !== undefined && sql`entry.client_id = ${clientId}::uuid`,
    processor !== undefined && sql`entry.processor = ${processor}`,
    currency !== undefined && sql`entry.currency = ${currency}`,
    asOf !== undefined && sql`entry.occurred_at <= ${asOf}`,
  ].filter((condition) => condition !== false);
  const { rows } = await sql<{ client_id: string; account: JournalAccount; processor: Processor; currency: string; debit: string; credit: string }>`
    select entry.client_id, line.account, line.processor, line.currency, sum(line.debit)::text as debit, sum(line.credit)::text as credit
    from journal_entries entry
    cross join lateral json_to_recordset(entry.lines) as line(account text, processor text, currency text, debit bigint, credit bigint)
    where ${conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `)}
    group by entry.client_id, line.account, line.processor, line.currency
  `.execute(db);
  return balancesOf(
    rows.map((row) => ({ clientId: row.client_id, account: row.account, processor: row.processor, currency: row.currency, debit: Number(row.debit), credit: Number(row.credit) })),
  );
}
