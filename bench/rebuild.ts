/**
 * Rebuild throughput: loads a payment-shaped log (streams of five events, ~300-byte payloads),
 * then times `rebuildProjection` of a one-row-per-stream summary projection.
 * Usage: tsx bench/rebuild.ts [--target postgres|pglite|both] [--database-url URL] [--events N] [--batch-size 2000]
 */
import { sql } from "kysely";
import type { DatabaseKind } from "../src/db/connection.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import type { EventStore } from "../src/eventstore/port.ts";
import { rebuildProjection } from "../src/projections/rebuild.ts";
import { createStreamSummaryTable, streamSummaryProjection } from "./stream-summary-projection.ts";
import { benchArgs, formatNumber, intOption, openTarget, paymentEvent, printResults, type ResultRow } from "./support.ts";

const EVENTS_PER_STREAM = 5;
/** Events a stream gets in the first loading wave; the rest follow once every stream exists. */
const FIRST_WAVE = 2;
const LOADERS = 16;
const DEFAULT_EVENTS: Record<DatabaseKind, number> = { postgres: 200_000, pglite: 50_000 };
const GOAL_POSTGRES = 50_000;

const { values, targets, serverUrl } = benchArgs(["events", "batch-size"]);
const batchSize = intOption(values["batch-size"], 2_000, "batch-size");

/**
 * Appends every stream's first events, then the rest, so the log interleaves streams the way a
 * payment log does (authorizations first, captures later). Many events per append call.
 */
async function load(store: EventStore, streams: number): Promise<void> {
  for (const [from, to] of [
    [0, FIRST_WAVE],
    [FIRST_WAVE, EVENTS_PER_STREAM],
  ] as const) {
    let next = 0;
    const loader = async () => {
      for (let i = next++; i < streams; i = next++) {
        const events = Array.from({ length: to - from }, (_, k) => paymentEvent(i, from + k));
        await store.append(`payment-${i}`, events, from === 0 ? "no_stream" : BigInt(from - 1));
      }
    };
    await Promise.all(Array.from({ length: LOADERS }, loader));
  }
}

async function run(kind: DatabaseKind): Promise<ResultRow[]> {
  const streams = Math.ceil(intOption(values.events, DEFAULT_EVENTS[kind], "events") / EVENTS_PER_STREAM);
  const target = await openTarget(kind, serverUrl, LOADERS);
  try {
    const { db } = target.connection;
    const store = new PostgresEventStore(db);
    let started = performance.now();
    await load(store, streams);
    const loadSeconds = (performance.now() - started) / 1_000;
    console.log(`${kind}: loaded ${formatNumber(streams * EVENTS_PER_STREAM)} events in ${formatNumber(loadSeconds, 1)} s`);

    await createStreamSummaryTable(db);
    started = performance.now();
    const events = await rebuildProjection({ db, store, projection: streamSummaryProjection, batchSize });
    const seconds = (performance.now() - started) / 1_000;

    const { rows } = await sql<{ rows: string; events: string }>`
      select count(*)::text as rows, coalesce(sum(event_count), 0)::text as events from stream_summaries`.execute(db);
    if (events !== streams * EVENTS_PER_STREAM || Number(rows[0]?.rows) !== streams || Number(rows[0]?.events) !== events) {
      throw new Error(`rebuild mismatch: replayed ${events}, summary ${JSON.stringify(rows[0])}, expected ${streams} streams`);
    }

    const perSecond = events / seconds;
    const label = kind === "postgres" ? "postgres" : "pglite (memory)";
    return [
      {
        target: label,
        metric: `rebuilt events/s (${formatNumber(events)} events, batch ${batchSize})`,
        value: formatNumber(perSecond),
        goal: kind === "postgres" ? `>= ${formatNumber(GOAL_POSTGRES)}` : "-",
        met: kind === "postgres" ? (perSecond >= GOAL_POSTGRES ? "yes" : "no") : "-",
      },
      { target: label, metric: "rebuild time", value: `${formatNumber(seconds, 2)} s`, goal: "-", met: "-" },
      {
        target: label,
        metric: "load (append calls of 2-3 events)",
        value: `${formatNumber(events / loadSeconds)} events/s`,
        goal: "-",
        met: "-",
      },
    ];
  } finally {
    await target.close();
  }
}

const results: ResultRow[] = [];
for (const kind of targets) results.push(...(await run(kind)));
printResults(results);
