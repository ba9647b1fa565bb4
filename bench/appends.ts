/**
 * Single-event append throughput: 32 concurrent writers, each writing payment-shaped streams of
 * five events (the first with `no_stream`, the next four with the exact expected revision).
 * Usage: tsx bench/appends.ts [--target postgres|pglite|both] [--database-url URL] [--seconds 10] [--pool-size 32]
 */
import { sql } from "kysely";
import type { DatabaseKind } from "../src/db/connection.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import type { EventStore } from "../src/eventstore/port.ts";
import {
  benchArgs,
  formatNumber,
  intOption,
  openTarget,
  paymentEvent,
  percentile,
  printResults,
  type ResultRow,
} from "./support.ts";

const WRITERS = 32;
const EVENTS_PER_STREAM = 5;
const WARM_UP_MS = 2_000;
const GOAL_POSTGRES = 5_000;

const { values, targets, serverUrl } = benchArgs(["seconds", "pool-size"]);
const seconds = intOption(values.seconds, 10, "seconds");
const poolSize = intOption(values["pool-size"], 32, "pool-size");

interface Measurement {
  from: number;
  to: number;
  appends: number;
  /** Latencies (ms) of the appends that completed inside the m. */
  latencies: number[];
}

async function writer(store: EventStore, w: number, m: Measurement): Promise<void> {
  // Writers watch the clock themselves: on in-memory PGlite an append completes through
  // microtasks alone, so a timer would never get to run while they are busy.
  for (let n = 0; performance.now() < m.to; n++) {
    const streamId = `bench-${w}-${n}`;
    for (let revision = 0; revision < EVENTS_PER_STREAM && performance.now() < m.to; revision++) {
      const started = performance.now();
      await store.append(
        streamId,
        [paymentEvent(w * 1_000_000 + n, revision)],
        revision === 0 ? "no_stream" : BigInt(revision - 1),
      );
      const ended = performance.now();
      m.appends++;
      if (ended >= m.from && ended <= m.to) m.latencies.push(ended - started);
    }
  }
}

async function run(kind: DatabaseKind): Promise<ResultRow[]> {
  const target = await openTarget(kind, serverUrl, poolSize);
  try {
    const store = new PostgresEventStore(target.connection.db);
    const start = performance.now();
    const from = start + WARM_UP_MS;
    const m: Measurement = { from, to: from + seconds * 1_000, appends: 0, latencies: [] };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(store, w, m)));

    const { rows } = await sql<{ count: string }>`select count(*)::text as count from events`.execute(target.connection.db);
    if (Number(rows[0]?.count) !== m.appends) throw new Error(`expected ${m.appends} events, found ${rows[0]?.count}`);

    const latencies = m.latencies.sort((a, b) => a - b);
    const perSecond = latencies.length / seconds;
    const label = kind === "postgres" ? `postgres (pool ${poolSize})` : "pglite (memory)";
    const goal = kind === "postgres" ? `>= ${formatNumber(GOAL_POSTGRES)}` : "-";
    const met = kind === "postgres" ? (perSecond >= GOAL_POSTGRES ? "yes" : "no") : "-";
    return [
      { target: label, metric: `appends/s (${WRITERS} writers, ${seconds} s)`, value: formatNumber(perSecond), goal, met },
      { target: label, metric: "append latency p50", value: `${formatNumber(percentile(latencies, 0.5), 2)} ms`, goal: "-", met: "-" },
      { target: label, metric: "append latency p99", value: `${formatNumber(percentile(latencies, 0.99), 2)} ms`, goal: "-", met: "-" },
    ];
  } finally {
    await target.close();
  }
}

const results: ResultRow[] = [];
for (const kind of targets) {
  console.log(`${kind}: ${WRITERS} writers, ${WARM_UP_MS / 1_000} s warm-up, ${seconds} s measured...`);
  results.push(...(await run(kind)));
}
printResults(results);
