/**
 * Journal rebuild throughput (issue 56 item 6): loads a log of payment streams as the service
 * writes them (sales settled in batches and closed, authorizations captured and partly refunded,
 * declines), then times `rebuildProjection` of the journal projection.
 * Usage: tsx bench/journal-rebuild.ts [--target postgres|pglite|both] [--database-url URL] [--events N] [--batch-size 2000] [--runs 3] [--alternate ROUNDS]
 *
 * The log is vacuumed once loaded, as autovacuum leaves a log at rest: a rebuild right after the
 * load would otherwise set the hint bits of every page it reads while autovacuum scans beside it.
 * The figure is the median of `--runs` rebuilds, each of the whole log.
 *
 * `--alternate N` then rebuilds the same log N times more each way, alternating (P A, A P, ...):
 * with the journal's rebuild pass (books kept in memory for the whole replay, written once at the
 * end) and through `apply` batch by batch (books read and upserted every batch), to compare the
 * two designs under the same load.
 */
import { sql } from "kysely";
import { safeCard } from "../src/domain/cards.ts";
import type { DatabaseKind } from "../src/db/connection.ts";
import type { PaymentEvent, TransactionType } from "../src/domain/payments/index.ts";
import { Secret } from "../src/domain/secret.ts";
import type { SettlementEvent } from "../src/domain/settlements/events.ts";
import { totalsOf } from "../src/domain/settlements/totals.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import type { EventStore, JsonObject, NewEvent } from "../src/eventstore/port.ts";
import { journalProjection } from "../src/projections/journal/journal-projection.ts";
import type { Projection } from "../src/projections/projection.ts";
import { rebuildProjection } from "../src/projections/rebuild.ts";
import { benchArgs, formatNumber, intOption, median, openTarget, printResults, type ResultRow } from "./support.ts";

const LOADERS = 16;
const DEFAULT_EVENTS: Record<DatabaseKind, number> = { postgres: 200_000, pglite: 50_000 };
const GOAL_POSTGRES = 50_000;
/** Sales per settlement batch; each batch's close is an event of its own stream. */
const SALES_PER_BATCH = 500;

const { values, targets, serverUrl } = benchArgs(["events", "batch-size", "runs", "alternate"]);
const batchSize = intOption(values["batch-size"], 2_000, "batch-size");
const runs = intOption(values.runs, 3, "runs");
const alternateRounds = intOption(values.alternate, 0, "alternate");

const clientId = "0190a8e2-7c3b-7def-8a12-3456789abcde";
const hostConfigurationId = "0190a8e2-0000-7000-8000-0000000000c1";
const card = safeCard(new Secret("4242424242424242"), 12, 2030, "fp_1_Kx3mE0b9pQ2sW7vY1zT4uR8nL6hJ5gF3dC2aB1xZ0yW");
const approvedResponse = { code: "00", message: "Approved", authorizationCode: "A1B2C3", reference: "ref-0123456789" };
const at = (index: number) => new Date(Date.UTC(2026, 5, 10) + index).toISOString();
const uuid = (kind: number, index: number) => `0190a8e2-${kind.toString(16).padStart(4, "0")}-7000-8000-${index.toString(16).padStart(12, "0")}`;

const initiated = (transactionId: string, type: TransactionType, amount: number, parent: string | null, index: number): PaymentEvent => ({
  type: "TransactionInitiated.v1",
  data: {
    transactionId,
    type,
    amount,
    currency: "USD",
    parentTransactionId: parent,
    clientId,
    userId: `user_${index % 1000}`,
    processor: "processor_a",
    hostConfigurationId,
    hostConfigurationVersion: 1,
    card: parent === null ? card : null,
    reference: parent === null ? `order-${index}` : null,
    metadata: parent === null ? { orderId: String(index) } : {},
    reason: null,
    occurredAt: at(index),
  },
});
const approved = (transactionId: string, index: number): PaymentEvent => ({
  type: "TransactionApproved.v1",
  data: { transactionId, processorResponse: approvedResponse, occurredAt: at(index) },
});

/**
 * Payment `index`'s events, in two waves (what happens at once, what follows later): half are
 * sales settled in their batch, a third authorizations captured in part and refunded in part, the
 * rest declined sales.
 */
function paymentEvents(index: number): [PaymentEvent[], PaymentEvent[]] {
  const root = uuid(1, index);
  const amount = 1_000 + (index % 9_000);
  switch (index % 6) {
    case 0:
    case 1:
    case 2: {
      const settlementId = uuid(9, Math.floor(index / SALES_PER_BATCH));
      return [
        [initiated(root, "sale", amount, null, index), approved(root, index)],
        [{ type: "TransactionSettled.v1", data: { transactionId: root, settlementId, occurredAt: at(index) } }],
      ];
    }
    case 3:
    case 4: {
      const [capture, refund] = [uuid(2, index), uuid(3, index)];
      return [
        [initiated(root, "authorization", amount, null, index), approved(root, index)],
        [initiated(capture, "capture", amount - 100, root, index), approved(capture, index), initiated(refund, "refund", 200, capture, index), approved(refund, index)],
      ];
    }
    default:
      return [
        [
          initiated(root, "sale", amount, null, index),
          { type: "TransactionDeclined.v1", data: { transactionId: root, declineCode: "card_declined", processorResponse: null, occurredAt: at(index) } },
        ],
        [],
      ];
  }
}

/** The close of the batch that settled the sales of payments `[first, first + SALES_PER_BATCH)`. */
function batchClose(batch: number, streams: number): SettlementEvent {
  const items = [];
  for (let index = batch * SALES_PER_BATCH; index < Math.min(streams, (batch + 1) * SALES_PER_BATCH); index += 1) {
    if (index % 6 <= 2) items.push({ type: "sale" as const, currency: "USD", amount: 1_000 + (index % 9_000) });
  }
  const totals = totalsOf(items);
  return {
    type: "SettlementClosed.v2",
    data: {
      settlementId: uuid(9, batch),
      clientId,
      processor: "processor_a",
      hostConfigurationId,
      cutoff: at(batch),
      transactionCount: items.length,
      totals,
      processorTotals: totals,
      status: "matched",
      occurredAt: at((batch + 1) * SALES_PER_BATCH),
    },
  };
}

const nothingWritten: Projection = { name: "nothing_written", tables: [], apply: async () => {} };

const stored = (event: PaymentEvent | SettlementEvent): NewEvent => ({ type: event.type, data: event.data as unknown as JsonObject, metadata: { actor: "bench" } });

/** Every payment's first wave, then every second wave and the batches' closes, 16 appends at a time. */
async function load(store: EventStore, streams: number): Promise<number> {
  let events = 0;
  for (const wave of [0, 1] as const) {
    let next = 0;
    const loader = async () => {
      for (let index = next++; index < streams; index = next++) {
        const waveEvents = paymentEvents(index)[wave];
        if (waveEvents.length === 0) continue;
        await store.append(`payment-${uuid(1, index)}`, waveEvents.map(stored), wave === 0 ? "no_stream" : 1n);
        events += waveEvents.length;
      }
    };
    await Promise.all(Array.from({ length: LOADERS }, loader));
  }
  for (let batch = 0; batch * SALES_PER_BATCH < streams; batch += 1) {
    await store.append(`settlement-${uuid(9, batch)}`, [stored(batchClose(batch, streams))], "any");
    events += 1;
  }
  return events;
}

async function run(kind: DatabaseKind): Promise<ResultRow[]> {
  const wanted = intOption(values.events, DEFAULT_EVENTS[kind], "events");
  // A payment averages 4 events (sales 3, authorizations 6, declines 2).
  const streams = Math.ceil(wanted / 4);
  const target = await openTarget(kind, serverUrl, LOADERS);
  try {
    const { db } = target.connection;
    const store = new PostgresEventStore(db);
    let started = performance.now();
    const loaded = await load(store, streams);
    if (kind === "postgres") await sql`vacuum analyze events`.execute(db);
    console.log(`${kind}: loaded ${formatNumber(loaded)} events in ${formatNumber((performance.now() - started) / 1_000, 1)} s`);

    // The floor: the same events read and handed to a projection that writes nothing; once before
    // (the log's pages then in memory for the journal too), and once after, measured.
    const readOnly = { ...nothingWritten, eventTypes: journalProjection.eventTypes };
    await rebuildProjection({ db, store, projection: readOnly, batchSize });

    const rates: number[] = [];
    let events = 0;
    for (let run = 0; run < runs; run++) {
      started = performance.now();
      events = await rebuildProjection({ db, store, projection: journalProjection, batchSize });
      rates.push(events / ((performance.now() - started) / 1_000));
      console.log(`${kind}: rebuild ${run + 1} of ${runs}: ${formatNumber(rates.at(-1)!)} events/s`);
    }

    started = performance.now();
    await rebuildProjection({ db, store, projection: readOnly, batchSize });
    const readSeconds = (performance.now() - started) / 1_000;

    const { rows } = await sql<{ entries: string; payments: string; debits: string; credits: string }>`
      select (select count(*) from journal_entries)::text as entries, (select count(*) from journal_payments)::text as payments,
             coalesce(sum(line.debit), 0)::text as debits, coalesce(sum(line.credit), 0)::text as credits
      from journal_entries cross join lateral json_to_recordset(lines) as line(debit bigint, credit bigint)`.execute(db);
    const [row] = rows;
    // Sales: approval and settlement; authorizations: approval, capture, refund.
    const expectedEntries = Array.from({ length: streams }, (_, index) => [2, 2, 2, 3, 3, 0][index % 6]!).reduce((a, b) => a + b, 0);
    if (events !== loaded || Number(row?.entries) !== expectedEntries || Number(row?.payments) !== streams || row?.debits !== row?.credits) {
      throw new Error(`rebuild mismatch: replayed ${events} of ${loaded}, ${JSON.stringify(row)}, expected ${expectedEntries} entries of ${streams} payments`);
    }

    const perSecond = median(rates);
    const label = kind === "postgres" ? "postgres" : "pglite (memory)";
    const alternated = await alternate(db, store, label);
    return [
      ...alternated,
      {
        target: label,
        metric: `journal rebuilt events/s, median of ${runs} (${formatNumber(events)} events, ${formatNumber(expectedEntries)} entries, batch ${batchSize})`,
        value: formatNumber(perSecond),
        goal: kind === "postgres" ? `>= ${formatNumber(GOAL_POSTGRES)}` : "-",
        met: kind === "postgres" ? (perSecond >= GOAL_POSTGRES ? "yes" : "no") : "-",
      },
      { target: label, metric: "rebuilds' range", value: `${formatNumber(Math.min(...rates))}-${formatNumber(Math.max(...rates))} events/s`, goal: "-", met: "-" },
      { target: label, metric: "the same events read, nothing written (the floor)", value: `${formatNumber(events / readSeconds)} events/s`, goal: "-", met: "-" },
    ];
  } finally {
    await target.close();
  }
}

/** The two designs rebuilt alternately, `alternateRounds` times each: each run's figure, and each design's range. */
async function alternate(db: Parameters<typeof rebuildProjection>[0]["db"], store: EventStore, label: string): Promise<ResultRow[]> {
  const designs = {
    "rebuild pass": journalProjection,
    "apply per batch": { ...journalProjection, rebuildPass: undefined },
  };
  const figures: Record<keyof typeof designs, number[]> = { "rebuild pass": [], "apply per batch": [] };
  for (let round = 0; round < alternateRounds; round++) {
    const order = (round % 2 === 0 ? ["rebuild pass", "apply per batch"] : ["apply per batch", "rebuild pass"]) as (keyof typeof designs)[];
    for (const design of order) {
      const started = performance.now();
      const events = await rebuildProjection({ db, store, projection: designs[design], batchSize });
      const perSecond = events / ((performance.now() - started) / 1_000);
      console.log(`${label}: round ${round + 1}, ${design}: ${formatNumber(perSecond)} events/s`);
      figures[design].push(perSecond);
    }
  }
  return Object.entries(figures)
    .filter(([, runs]) => runs.length > 0)
    .map(([design, runs]) => ({
      target: label,
      metric: `journal rebuilt events/s, ${design} (${runs.length} runs, alternating)`,
      value: `${formatNumber(Math.min(...runs))}-${formatNumber(Math.max(...runs))}`,
      goal: "-",
      met: "-",
    }));
}

const results: ResultRow[] = [];
for (const kind of targets) results.push(...(await run(kind)));
printResults(results);
