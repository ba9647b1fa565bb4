import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.ts";
import { type Processor, processors } from "../../domain/host-configurations/schemas.ts";
import {
  type JournalEntry,
  type PaymentBooks,
  postPaymentEvent,
  postSettlementClose,
  settledNetOf,
} from "../../domain/journal/index.ts";
import { type PaymentEvent, paymentEventTypes } from "../../domain/payments/index.ts";
import { type SettlementClosedV1, type SettlementClosedV2, settlementStreamId } from "../../domain/settlements/events.ts";
import type { Recorded } from "../../eventstore/typed-read.ts";
import { defineProjection, type Projection, type Streams } from "../projection.ts";

type JournalEvent = PaymentEvent | SettlementClosedV1 | SettlementClosedV2;

const isClose = (event: Recorded<JournalEvent>): event is Recorded<SettlementClosedV1 | SettlementClosedV2> =>
  event.type === "SettlementClosed.v1" || event.type === "SettlementClosed.v2";

const paymentIdOf = (streamId: string) => streamId.replace(/^payment-/, "");

/**
 * The journal: the balanced entries every money movement posts (src/domain/journal), from the
 * payment events and the batches' closes, never from a command. Each payment's books are kept
 * with the stream revision they reflect, so a replayed event is recognised and skipped; an entry's
 * id comes from its event, so a replayed close posts nothing twice.
 *
 * A batch is applied set-wise: one read of the books of the payments it touches, the events
 * folded in memory in log order, then one insert of the entries and one upsert of the books. A
 * batch's close reads what its settled transactions' entries moved, from the table and from the
 * entries of this very batch not written yet. A rebuild keeps the books in memory from batch to
 * batch instead (up to a bound), and writes them when it forgets them and at its end.
 */
export function journalProjectionWith({ booksKeptInMemory }: { booksKeptInMemory: number }): Projection {
  return defineProjection<JournalEvent>({
    name: "journal",
    tables: ["journal_entries", "journal_payments"],
    eventTypes: [...paymentEventTypes, "SettlementClosed.v1", "SettlementClosed.v2"],
    async streamsToRead(_db, events) {
      // An older close does not name its client and processor: its batch's opening does.
      const openings = events.filter((event) => event.type === "SettlementClosed.v1").map((event) => settlementStreamId(event.data.settlementId));
      return { whole: [], openings };
    },
    async apply(trx, events, streams) {
      const paymentIds = [...new Set(events.filter((event) => !isClose(event)).map((event) => paymentIdOf(event.streamId)))];
      const stored = await storedBooks(trx, paymentIds);
      const known: KnownBooks = {
        books: new Map([...stored].map(([paymentId, { books }]) => [paymentId, books])),
        revisions: new Map([...stored].map(([paymentId, { revision }]) => [paymentId, revision])),
      };
      const changed = await postBatch(trx, events, streams, known);
      await upsertBooks(trx, booksRows(known, changed));
    },
    rebuildPass() {
      // The whole log goes through one pass into empty tables: each payment's books stay here from
      // batch to batch instead of being read back and upserted every batch. Memory is bounded: past
      // `booksKeptInMemory` payments, the changed books are written and forgotten, and read back
      // when a later event of one of them comes (a payment's settlement often comes much later).
      const known: KnownBooks = { books: new Map(), revisions: new Map() };
      const changed = new Set<string>();
      /** Books were forgotten: a payment not in memory may have some written. */
      let forgotSome = false;
      const writeChanged = async (trx: Transaction<Database>) => {
        const rows = booksRows(known, changed);
        for (let start = 0; start < rows.length; start += BOOKS_PER_STATEMENT) await upsertBooks(trx, rows.slice(start, start + BOOKS_PER_STATEMENT));
        changed.clear();
      };
      return {
        async apply(trx, events, streams) {
          const paymentIds = forgotSome ? [...new Set(events.filter((event) => !isClose(event)).map((event) => paymentIdOf(event.streamId)))] : [];
          for (const [paymentId, { revision, books }] of await storedBooks(trx, paymentIds.filter((paymentId) => !known.books.has(paymentId)))) {
            known.books.set(paymentId, books);
            known.revisions.set(paymentId, revision);
          }
          for (const paymentId of await postBatch(trx, events, streams, known)) changed.add(paymentId);
          if (known.books.size < booksKeptInMemory) return;
          await writeChanged(trx);
          known.books.clear();
          known.revisions.clear();
          forgotSome = true;
        },
        finish: writeChanged,
      };
    },
  });
}

/** The journal, whose rebuild keeps up to 200,000 payments' books in memory (some hundred bytes each). */
export const journalProjection = journalProjectionWith({ booksKeptInMemory: 200_000 });

/** Each payment's books and the stream revision they reflect, as far as a batch (or a rebuild) knows them. */
interface KnownBooks {
  books: Map<string, PaymentBooks | null>;
  revisions: Map<string, bigint>;
}

/** How many payments' books a rebuild writes in one statement. */
const BOOKS_PER_STATEMENT = 5_000;

/**
 * Folds the batch's events in log order into `known` and inserts the entries they post; returns
 * the payments whose books changed. A payment event at or before the revision its books reflect
 * is a replay, and posts nothing.
 */
async function postBatch(trx: Transaction<Database>, events: readonly Recorded<JournalEvent>[], streams: Streams, known: KnownBooks): Promise<Set<string>> {
  const changed = new Set<string>();
  const entries: JournalEntry[] = [];
  for (const event of events) {
    if (isClose(event)) {
      entries.push(...(await postClose(trx, event, entries, streams)));
      continue;
    }
    const paymentId = paymentIdOf(event.streamId);
    if (event.revision <= (known.revisions.get(paymentId) ?? -1n)) continue;
    const posted = postPaymentEvent(known.books.get(paymentId) ?? null, event, { id: event.id, type: event.type, position: event.position, paymentId });
    known.books.set(paymentId, posted.books);
    known.revisions.set(paymentId, event.revision);
    changed.add(paymentId);
    if (posted.entry) entries.push(posted.entry);
  }
  await insertEntries(trx, entries);
  return changed;
}

const booksRows = (known: KnownBooks, paymentIds: Iterable<string>) =>
  [...paymentIds].flatMap((paymentId) => {
    const books = known.books.get(paymentId);
    return books ? [{ payment_id: paymentId, revision: known.revisions.get(paymentId)!.toString(), books }] : [];
  });

async function storedBooks(trx: Transaction<Database>, paymentIds: string[]) {
  if (paymentIds.length === 0) return new Map<string, { revision: bigint; books: PaymentBooks }>();
  const { rows } = await sql<{ payment_id: string; revision: string; books: PaymentBooks }>`
    select payment_id, revision::text as revision, books from journal_payments
    where payment_id = any(array(select jsonb_array_elements_text(${JSON.stringify(paymentIds)}::jsonb)::uuid))
  `.execute(trx);
  return new Map(rows.map((row) => [row.payment_id, { revision: BigInt(row.revision), books: row.books }]));
}

/** A batch's close: its entries, from what its settled transactions moved (posted before it, in the table or in this batch). */
async function postClose(
  trx: Transaction<Database>,
  event: Recorded<SettlementClosedV1 | SettlementClosedV2>,
  unwritten: readonly JournalEntry[],
  streams: Streams,
): Promise<JournalEntry[]> {
  const { settlementId, processorTotals, occurredAt } = event.data;
  const identity = event.type === "SettlementClosed.v2" ? event.data : openingOf(streams, settlementId);
  if (!identity) return [];
  const written = await trx
    .selectFrom("journal_entries")
    .select(["kind", "currency", "lines"])
    .where("settlement_id", "=", settlementId)
    .where("kind", "=", "transaction_settled")
    .execute();
  const settledNet = settledNetOf([
    ...written.map((row) => ({ kind: "transaction_settled" as const, currency: row.currency, lines: row.lines })),
    ...unwritten.filter((entry) => entry.settlementId === settlementId),
  ]);
  const { clientId, processor } = identity;
  return postSettlementClose({ settlementId, clientId, processor, processorTotals, occurredAt }, settledNet, {
    id: event.id,
    type: event.type,
    position: event.position,
  });
}

const isProcessor = (value: unknown): value is Processor => processors.some((processor) => processor === value);

function openingOf(streams: Streams, settlementId: string): { clientId: string; processor: Processor } | undefined {
  const [opening] = streams.get(settlementStreamId(settlementId)) ?? [];
  const data = opening?.data;
  if (!data || typeof data.clientId !== "string" || !isProcessor(data.processor)) return undefined;
  return { clientId: data.clientId, processor: data.processor };
}

const entryRow = (entry: JournalEntry) => ({
  entry_id: entry.id,
  client_id: entry.clientId,
  processor: entry.processor,
  currency: entry.currency,
  kind: entry.kind,
  payment_id: entry.paymentId,
  transaction_id: entry.transactionId,
  settlement_id: entry.settlementId,
  occurred_at: entry.occurredAt,
  event_id: entry.eventId,
  event_type: entry.eventType,
  event_position: entry.eventPosition.toString(),
  lines: entry.lines,
});

/** One statement for the batch's entries, its rows one JSON parameter (the same text and plan whatever the batch's size). */
async function insertEntries(trx: Transaction<Database>, entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await sql`
    insert into journal_entries (entry_id, client_id, processor, currency, kind, payment_id, transaction_id, settlement_id,
                                 occurred_at, event_id, event_type, event_position, lines)
    select * from json_to_recordset(${JSON.stringify(entries.map(entryRow))}::json)
      as row(entry_id uuid, client_id uuid, processor text, currency text, kind text, payment_id uuid, transaction_id uuid,
             settlement_id uuid, occurred_at timestamptz, event_id uuid, event_type text, event_position bigint, lines json)
    on conflict (entry_id) do nothing
  `.execute(trx);
}

async function upsertBooks(trx: Transaction<Database>, rows: readonly { payment_id: string; revision: string; books: PaymentBooks }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into journal_payments (payment_id, revision, books)
    select * from json_to_recordset(${JSON.stringify(rows)}::json) as row(payment_id uuid, revision bigint, books json)
    on conflict (payment_id) do update set revision = excluded.revision, books = excluded.books
  `.execute(trx);
}
