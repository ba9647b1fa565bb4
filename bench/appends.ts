/**
 * Single-event append throughput: 32 concurrent writers, each writing payment-shaped streams of
 * five events (the first with `no_stream`, the next four with the exact expected revision).
 * On PostgreSQL the same workload then runs, in the same run, against Emmett's PostgreSQL event
 * store (`@event-driven-io/emmett-postgresql`, bench/emmett-appends.ts) in a fresh database of its
 * own on the same server with a pool of the same size, and a row "ours / Emmett" compares the two
 * (goal >= 3×). PGlite has no Emmett row: Emmett's store needs a PostgreSQL server.
 * With `--eventstore URL` (issue 29) it measures instead EventStoreDB and PostgreSQL alternately
 * in one run (EventStoreDB, PostgreSQL, PostgreSQL, EventStoreDB), each on a fresh target, and
 * prints EventStoreDB's figures beside PostgreSQL's: only ratios of one run mean anything on a
 * shared machine.
 * Usage: tsx bench/appends.ts [--target postgres|pglite|both] [--database-url URL] [--seconds 10] [--pool-size 32]
 *                             [--eventstore esdb://127.0.0.1:2113?tls=false]
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { DatabaseKind } from "../src/db/connection.ts";
import { createEventStoreDbEventStore } from "../src/eventstore/eventstoredb/event-store.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import type { NewEvent } from "../src/eventstore/port.ts";
import { openEmmettTarget } from "./emmett-appends.ts";
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
const GOAL_RATIO_TO_EMMETT = 3;

const { values, targets, serverUrl } = benchArgs(["seconds", "pool-size", "eventstore"]);
const seconds = intOption(values.seconds, 10, "seconds");
const poolSize = intOption(values["pool-size"], 32, "pool-size");

/** An event store under the workload, in a fresh database of its own. */
export interface AppendTarget {
  label: string;
  /** Appends `event` to `streamId` as its event number `revision` (0-based), expecting exactly that many before it. */
  append(streamId: string, event: NewEvent, revision: number): Promise<void>;
  /** How many events the store holds. */
  countEvents(): Promise<number>;
  /** Closes the store and drops its database. */
  close(): Promise<void>;
}

interface Measurement {
  from: number;
  to: number;
  appends: number;
  /** Latencies (ms) of the appends that completed inside the measured window. */
  latencies: number[];
}

interface Throughput {
  perSecond: number;
  /** Ascending. */
  latencies: number[];
}

async function writer(target: AppendTarget, w: number, m: Measurement): Promise<void> {
  // Writers watch the clock themselves: on in-memory PGlite an append completes through
  // microtasks alone, so a timer would never get to run while they are busy.
  for (let n = 0; performance.now() < m.to; n++) {
    const streamId = `bench-${w}-${n}`;
    for (let revision = 0; revision < EVENTS_PER_STREAM && performance.now() < m.to; revision++) {
      const started = performance.now();
      await target.append(streamId, paymentEvent(w * 1_000_000 + n, revision), revision);
      const ended = performance.now();
      m.appends++;
      if (ended >= m.from && ended <= m.to) m.latencies.push(ended - started);
    }
  }
}

/** Runs the writers against `target` for the warm-up and the measured seconds, then checks every append was stored. */
async function measure(target: AppendTarget): Promise<Throughput> {
  const from = performance.now() + WARM_UP_MS;
  const m: Measurement = { from, to: from + seconds * 1_000, appends: 0, latencies: [] };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(target, w, m)));
  const stored = await target.countEvents();
  if (stored !== m.appends) throw new Error(`${target.label}: expected ${m.appends} events, found ${stored}`);
  return { perSecond: m.latencies.length / seconds, latencies: m.latencies.sort((a, b) => a - b) };
}

/** Opens `open`'s target, measures it and closes it again. */
async function measureIn(open: () => Promise<AppendTarget>): Promise<{ label: string; throughput: Throughput }> {
  const target = await open();
  try {
    console.log(`${target.label}: ${WRITERS} writers, ${WARM_UP_MS / 1_000} s warm-up, ${seconds} s measured...`);
    return { label: target.label, throughput: await measure(target) };
  } finally {
    await target.close();
  }
}

async function openOurs(kind: DatabaseKind): Promise<AppendTarget> {
  const target = await openTarget(kind, serverUrl, poolSize);
  const store = new PostgresEventStore(target.connection.db);
  return {
    label: kind === "postgres" ? `postgres (pool ${poolSize})` : "pglite (memory)",
    async append(streamId, event, revision) {
      await store.append(streamId, [event], revision === 0 ? "no_stream" : BigInt(revision - 1));
    },
    async countEvents() {
      const { rows } = await sql<{ count: string }>`select count(*)::text as count from events`.execute(target.connection.db);
      return Number(rows[0]?.count);
    },
    close: () => target.close(),
  };
}

/**
 * EventStoreDB at `url`: streams named for this target alone, so the events counted are its own
 * (the server keeps what earlier runs wrote).
 */
function openEventStoreDb(url: string): AppendTarget {
  const store = createEventStoreDbEventStore(url);
  const prefix = `bench-${randomBytes(4).toString("hex")}`;
  const lastRevisions = new Map<string, number>();
  return {
    label: "eventstoredb",
    async append(streamId, event, revision) {
      const stream = `${prefix}-${streamId}`;
      await store.append(stream, [event], revision === 0 ? "no_stream" : BigInt(revision - 1));
      lastRevisions.set(stream, revision);
    },
    async countEvents() {
      let count = 0;
      for (const stream of lastRevisions.keys()) {
        const [last] = await store.readStream(stream, { direction: "backwards", maxCount: 1 });
        count += last ? Number(last.revision) + 1 : 0;
      }
      return count;
    },
    close: () => store.close(),
  };
}

/** EventStoreDB and PostgreSQL alternately, E P P E, and the ratios of their means. */
async function compareWithEventStoreDb(url: string): Promise<ResultRow[]> {
  const runs: { eventstoredb: Throughput[]; postgres: Throughput[] } = { eventstoredb: [], postgres: [] };
  for (const kind of ["eventstoredb", "postgres", "postgres", "eventstoredb"] as const) {
    const { throughput } = await measureIn(async () => (kind === "eventstoredb" ? openEventStoreDb(url) : await openOurs("postgres")));
    runs[kind].push(throughput);
  }
  const mean = (measured: Throughput[], of: (run: Throughput) => number) => measured.reduce((sum, run) => sum + of(run), 0) / measured.length;
  const rate = (run: Throughput) => run.perSecond;
  const p99 = (run: Throughput) => percentile(run.latencies, 0.99);
  return [
    ...runs.eventstoredb.flatMap((run, index) => throughputRows(`eventstoredb (run ${index + 1})`, run, undefined)),
    ...runs.postgres.flatMap((run, index) => throughputRows(`postgres, pool ${poolSize} (run ${index + 1})`, run, undefined)),
    {
      target: "eventstoredb / postgres (E P P E)",
      metric: "appends/s ratio; p99 ratio",
      value: `${formatNumber(mean(runs.eventstoredb, rate) / mean(runs.postgres, rate), 2)}; ${formatNumber(mean(runs.eventstoredb, p99) / mean(runs.postgres, p99), 2)}`,
      goal: "-",
      met: "-",
    },
  ];
}

function throughputRows(label: string, { perSecond, latencies }: Throughput, goal: number | undefined): ResultRow[] {
  return [
    {
      target: label,
      metric: `appends/s (${WRITERS} writers, ${seconds} s)`,
      value: formatNumber(perSecond),
      goal: goal === undefined ? "-" : `>= ${formatNumber(goal)}`,
      met: goal === undefined ? "-" : perSecond >= goal ? "yes" : "no",
    },
    { target: label, metric: "append latency p50", value: `${formatNumber(percentile(latencies, 0.5), 2)} ms`, goal: "-", met: "-" },
    { target: label, metric: "append latency p99", value: `${formatNumber(percentile(latencies, 0.99), 2)} ms`, goal: "-", met: "-" },
  ];
}

function ratioRow(ours: Throughput, emmett: Throughput): ResultRow {
  const ratio = ours.perSecond / emmett.perSecond;
  return {
    target: "ours / Emmett",
    metric: "appends/s ratio (same run, same server)",
    value: `${formatNumber(ratio, 2)}×`,
    goal: `>= ${GOAL_RATIO_TO_EMMETT}×`,
    met: ratio >= GOAL_RATIO_TO_EMMETT ? "yes" : "no",
  };
}

async function run(kind: DatabaseKind): Promise<ResultRow[]> {
  const ours = await measureIn(() => openOurs(kind));
  if (kind === "pglite") return throughputRows(ours.label, ours.throughput, undefined);
  // Emmett runs after ours: its driver (dumbo) replaces pg's global json/jsonb parsers when it opens.
  const emmett = await measureIn(() => openEmmettTarget(serverUrl, poolSize));
  return [
    ...throughputRows(ours.label, ours.throughput, GOAL_POSTGRES),
    ...throughputRows(emmett.label, emmett.throughput, undefined),
    ratioRow(ours.throughput, emmett.throughput),
  ];
}

const results: ResultRow[] = [];
if (typeof values.eventstore === "string") results.push(...(await compareWithEventStoreDb(values.eventstore)));
else for (const kind of targets) results.push(...(await run(kind)));
printResults(results);
