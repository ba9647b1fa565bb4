/**
 * Closing a settlement batch of many transactions (issue 13: 100,000), its time and memory, and
 * what it costs payment traffic: sales per second of another client during the close must stay
 * within 20 % of those without a close, measured in the same run.
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * database, the processor simulator in a process of its own. Two clients are created through the
 * API, each with an API key and a processor_a host configuration. The first gets the batch:
 * `--transactions` approved USD sales through the API (autocannon with a fixed number of
 * requests), so that the ledger's events and the simulator's journal are the real ones and the
 * batch reconciles. The second gets the traffic: one autocannon load on its sales, without pause,
 * through three windows: a baseline of `--seconds`, the close (the admin's POST .../settle, from
 * sending it until the batch is closed: it answers 202 after SETTLEMENT_SYNC_WAIT_MS and goes on), and a baseline again of `--seconds`. Each window's sales per
 * second are counted in the read model (approved sales of the second client created in the
 * window), since one continuous load has no per-window autocannon result; the load is stopped
 * once the windows are over.
 *
 * During each window the bench samples the process's memory (the service's heap: autocannon runs
 * in a worker thread, which counts in the RSS but not in the main heap) and the main event loop's
 * delay. After the close it reads the event store: the batch's events (sizes, when each was
 * recorded) and the payments' TransactionSettled events, which split the close into its phases.
 *
 * With `--eventstore URL` (issue 29) the events go to that EventStoreDB, the read models staying
 * in the bench's PostgreSQL database: the same close, with its batch's events in chunks that keep
 * every append well under EventStoreDB's 1 MiB limit. Give it a fresh server: the projections
 * first apply whatever it holds.
 *
 * Usage: tsx bench/settlement.ts [--database-url URL] [--transactions 100000] [--seconds 10]
 *                                [--connections 64] [--seed-connections 128]
 *                                [--eventstore esdb://127.0.0.1:2113?tls=false]
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { sql } from "kysely";
import { z } from "zod";
import { settlementStreamId } from "../src/domain/settlements/events.ts";
import { openEventStore } from "../src/eventstore/open.ts";
import type { EventStore, RecordedEvent } from "../src/eventstore/port.ts";
import {
  ADMIN_KEY,
  type BenchService,
  createPayingClient,
  type Load,
  type PayingClient,
  POOL_SIZE,
  saleBodies,
  settledApprovedSales,
  startBenchService,
  untilProjectionsCaughtUp,
} from "./http-load.ts";
import { type BenchTarget, formatNumber, intOption, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

const GOAL_MAX_COST = 0.2;
/** The load runs before the first window until the service and PostgreSQL are warm. */
const WARM_UP_SECONDS = 3;
/** Sales seeded per autocannon run: a progress line each. */
const SEED_CHUNK = 10_000;
const SAMPLE_EVERY_MS = 100;

const { values, serverUrl } = serverArgs(["transactions", "seconds", "connections", "seed-connections", "eventstore"]);
const eventStoreUrl = typeof values.eventstore === "string" ? values.eventstore : undefined;
const transactions = intOption(values.transactions, 100_000, "transactions");
const seconds = intOption(values.seconds, 10, "seconds");
const connections = intOption(values.connections, 64, "connections");
const seedConnections = intOption(values["seed-connections"], 128, "seed-connections");

const totalsSchema = z.object({ currency: z.string(), salesCount: z.number(), salesAmount: z.number(), netAmount: z.number() });
const settlementSchema = z.object({
  id: z.string(),
  status: z.string(),
  totals: z.array(totalsSchema),
  processorTotals: z.array(totalsSchema),
  transactionCount: z.number(),
});
type Settlement = z.output<typeof settlementSchema>;

/** One autocannon run in a worker thread; `amount` requests, or until stopped. */
function startCannon(load: Load, connectionCount: number, amount?: number) {
  let finished: (result: autocannon.Result) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finished = resolve), (failed = reject)));
  const instance = autocannon(
    {
      url: load.url,
      connections: connectionCount,
      // A load stopped by hand never reports (its worker closes first): its sales are counted in the read model.
      ...(amount === undefined ? { duration: 24 * 3600 } : { amount }),
      workers: 1,
      method: "POST",
      headers: { "content-type": "application/json", ...load.headers },
      requests: load.bodies.map((body) => ({ method: "POST", body })),
    },
    (error: unknown, result) => (error ? failed(error) : finished(result)),
  );
  return { done, stop: () => instance.stop() };
}

const salesOf = (service: BenchService, client: PayingClient): Load => ({
  url: `${service.url}/v1/transactions/sale`,
  headers: { authorization: `Bearer ${client.key}` },
  bodies: saleBodies(),
});

/** Approved sales of the client through the API until it has `count`; its rate. */
async function seed(target: BenchTarget, load: Load, clientId: string, count: number): Promise<{ seconds: number; failed: number }> {
  const started = performance.now();
  let approved = await settledApprovedSales(target, clientId);
  let failed = 0;
  while (approved < count) {
    const result = await startCannon(load, seedConnections, Math.min(SEED_CHUNK, count - approved)).done;
    failed += result.non2xx + result.errors;
    approved = await settledApprovedSales(target, clientId);
    const elapsed = (performance.now() - started) / 1000;
    console.log(`seeding: ${approved} / ${count} approved sales, ${formatNumber(approved / elapsed)}/s`);
  }
  return { seconds: (performance.now() - started) / 1000, failed };
}

interface Window {
  name: string;
  from: Date;
  to: Date;
  peakRss: number;
  peakHeapUsed: number;
  /** Main event loop delay, in ms. */
  loopDelay: { p99: number; max: number };
}

/** Runs `during` while sampling the process's memory and event loop delay. */
async function observe<T>(name: string, during: () => Promise<T>): Promise<{ window: Window; value: T }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let peakRss = 0;
  let peakHeapUsed = 0;
  const sample = () => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeapUsed = Math.max(peakHeapUsed, heapUsed);
  };
  const sampler = setInterval(sample, SAMPLE_EVERY_MS);
  delay.enable();
  const from = new Date();
  sample();
  try {
    const value = await during();
    sample();
    const loopDelay = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
    return { window: { name, from, to: new Date(), peakRss, peakHeapUsed, loopDelay }, value };
  } finally {
    clearInterval(sampler);
    delay.disable();
  }
}

type CloseAnswer = { status: number; settlement: Settlement | undefined; detail: string };

/** The admin's manual close; an answer that is not the batch is kept as its detail, not thrown. */
async function closeBatch(baseUrl: string, hostConfigurationId: string): Promise<CloseAnswer> {
  try {
    const response = await fetch(`${baseUrl}/v1/host-configurations/processor_a/${hostConfigurationId}/settle`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const text = await response.text();
    if (response.status !== 201 && response.status !== 202) return { status: response.status, settlement: undefined, detail: text.slice(0, 160) };
    return { status: response.status, settlement: settlementSchema.parse(JSON.parse(text)), detail: "" };
  } catch (error) {
    return { status: 0, settlement: undefined, detail: String(error) };
  }
}

/** The batch once closed or failed, read from the settlements read model: a close answered 202 goes on after its answer. */
async function finishedBatch(target: BenchTarget, hostConfigurationId: string): Promise<Settlement | undefined> {
  for (;;) {
    const found = await target.connection.db
      .selectFrom("settlements")
      .select(["status", "view"])
      .where("host_configuration_id", "=", hostConfigurationId)
      .executeTakeFirst();
    if (found && found.status !== "open") return found.view === null ? undefined : settlementSchema.parse(found.view);
    await sleep(250);
  }
}

async function approvedSalesBetween(target: BenchTarget, clientId: string, { from, to }: Window): Promise<number> {
  const row = await target.connection.db
    .selectFrom("transactions")
    .select(sql<string>`count(*)::text`.as("count"))
    .where("client_id", "=", clientId)
    .where("type", "=", "sale")
    .where("status", "=", "approved")
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The transactions of the host configuration the read model still shows awaiting settlement. */
async function awaitingSettlement(target: BenchTarget, hostConfigurationId: string): Promise<number> {
  const row = await target.connection.db
    .selectFrom("transactions")
    .select(sql<string>`count(*)::text`.as("count"))
    .where("host_configuration_id", "=", hostConfigurationId)
    .where("awaiting_settlement", "=", true)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The batch of the host configuration, closed or not (a refused close answers no id). */
/** The batch of the host configuration, if one was opened (a refused close opens none). */
async function settlementIdOf(target: BenchTarget, hostConfigurationId: string): Promise<string | undefined> {
  const found = await target.connection.db
    .selectFrom("settlements")
    .select("settlement_id")
    .where("host_configuration_id", "=", hostConfigurationId)
    .executeTakeFirst();
  return found?.settlement_id;
}

interface EventsOfType {
  type: string;
  count: number;
  first: Date;
  last: Date;
  largestBytes: number;
  totalBytes: number;
}

/** The batch's own events and the payments' TransactionSettled events: when, how many, how large. */
async function closeEvents(store: EventStore, settlementId: string): Promise<EventsOfType[]> {
  const events = await store.readStream(settlementStreamId(settlementId));
  for (let after: string | null = null; ; ) {
    const read = await store.readAll({ after, batchSize: 1_000, types: ["TransactionSettled.v1"] });
    if (read.events.length === 0) break;
    events.push(...read.events.filter((event) => event.data.settlementId === settlementId));
    after = read.checkpoint;
  }
  const byType = new Map<string, RecordedEvent[]>();
  for (const event of events) {
    const ofType = byType.get(event.type) ?? [];
    ofType.push(event);
    byType.set(event.type, ofType);
  }
  return [...byType].map(([type, ofType]) => {
    const sizes = ofType.map((event) => Buffer.byteLength(JSON.stringify(event.data)));
    const times = ofType.map((event) => event.recordedAt.getTime());
    // Folds, not spreads: a spread of 100,000 arguments overflows the stack.
    return {
      type,
      count: ofType.length,
      first: new Date(times.reduce((a, b) => Math.min(a, b))),
      last: new Date(times.reduce((a, b) => Math.max(a, b))),
      largestBytes: sizes.reduce((a, b) => Math.max(a, b)),
      totalBytes: sizes.reduce((sum, size) => sum + size, 0),
    };
  });
}

const mb = (bytes: number) => `${formatNumber(bytes / 1024 / 1024, 1)} MB`;
const secondsBetween = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;
const row = (target: string, metric: string, value: string, goal = "-", met = "-"): ResultRow => ({ target, metric, value, goal, met });

function windowRows(window: Window, sales: number): ResultRow[] {
  const duration = secondsBetween(window.from, window.to);
  return [
    row(window.name, `sales/s (${connections} connections, ${formatNumber(duration, 1)} s)`, formatNumber(sales / duration)),
    row(window.name, "peak RSS / heap used (sampled)", `${mb(window.peakRss)} / ${mb(window.peakHeapUsed)}`),
    row(window.name, "event loop delay p99 / max", `${formatNumber(window.loopDelay.p99)} / ${formatNumber(window.loopDelay.max)} ms`),
  ];
}

function batchRows(answer: CloseAnswer, close: Window): ResultRow[] {
  const target = `close of ${formatNumber(transactions)}`;
  const duration = secondsBetween(close.from, close.to);
  const { settlement } = answer;
  if (!settlement) return [row(target, "answer", `${answer.status}: ${answer.detail}`, "201 or 202", "no")];
  const [totals] = settlement.totals;
  const complete = settlement.transactionCount === transactions && totals?.salesCount === transactions;
  return [
    row(target, "duration", `${formatNumber(duration, 1)} s`),
    row(target, "transactions closed per second", formatNumber(settlement.transactionCount / duration)),
    row(target, "status", settlement.status, "matched", settlement.status === "matched" ? "yes" : "no"),
    row(
      target,
      "transactions, sales count (ledger / processor)",
      `${settlement.transactionCount}, ${totals?.salesCount} / ${settlement.processorTotals[0]?.salesCount}`,
      String(transactions),
      complete ? "yes" : "no",
    ),
  ];
}

/** When each of the close's events was recorded, from the close's start, and their sizes. */
function phaseRows(events: EventsOfType[], close: Window): ResultRow[] {
  const at = (date: Date) => `${formatNumber(secondsBetween(close.from, date), 1)} s`;
  return events.map((events) =>
    row(
      events.type,
      events.count === 1 ? "recorded at; size" : "count; first .. last recorded at; largest, total size",
      events.count === 1
        ? `${at(events.first)}; ${mb(events.largestBytes)}`
        : `${events.count}; ${at(events.first)} .. ${at(events.last)}; ${events.largestBytes} B, ${mb(events.totalBytes)}`,
    ),
  );
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  try {
    const service = await startBenchService(target, eventStoreUrl ? { EVENTSTORE_URL: eventStoreUrl } : {});
    const store = openEventStore(eventStoreUrl, target.connection.db);
    try {
      if (eventStoreUrl) await untilProjectionsCaughtUp(target, eventStoreUrl);
      const batchClient = await createPayingClient(service.url, "Batch");
      const trafficClient = await createPayingClient(service.url, "Traffic");
      const seeded = await seed(target, salesOf(service, batchClient), batchClient.clientId, transactions);

      console.log(`traffic: ${connections} connections, ${WARM_UP_SECONDS} s warm-up, then ${seconds} s, the close, ${seconds} s`);
      const traffic = startCannon(salesOf(service, trafficClient), connections);
      const windows: Window[] = [];
      let answer: CloseAnswer;
      /** Seconds after which the close's request was answered (202: the close went on). */
      let answeredAfter: number;
      try {
        await sleep(WARM_UP_SECONDS * 1000);
        windows.push((await observe("without close (before)", () => sleep(seconds * 1000))).window);
        const close = await observe("during the close", async () => {
          const started = performance.now();
          const answered = await closeBatch(service.url, batchClient.hostConfiguration.id);
          const seconds = (performance.now() - started) / 1000;
          console.log(`close: answered ${answered.status} after ${formatNumber(seconds, 1)} s ${answered.detail}`);
          if (answered.status !== 202 && answered.status !== 0) return { answered, answeredAfter: seconds };
          const settlement = await finishedBatch(target, batchClient.hostConfiguration.id);
          return { answered: { ...answered, settlement }, answeredAfter: seconds };
        });
        windows.push(close.window);
        answer = close.value.answered;
        answeredAfter = close.value.answeredAfter;
        console.log(`close: done after ${formatNumber(secondsBetween(close.window.from, close.window.to), 1)} s`);
        windows.push((await observe("without close (after)", () => sleep(seconds * 1000))).window);
      } finally {
        traffic.stop();
      }
      await settledApprovedSales(target, trafficClient.clientId);

      const during = windows[1]!;
      const sales = await Promise.all(windows.map((window) => approvedSalesBetween(target, trafficClient.clientId, window)));
      const perSecond = windows.map((window, i) => (sales[i] ?? 0) / secondsBetween(window.from, window.to));
      const [beforeRate = 0, duringRate = 0, afterRate = 0] = perSecond;
      const withoutRate = (beforeRate + afterRate) / 2;
      const cost = 1 - duringRate / withoutRate;
      const settlementId = await settlementIdOf(target, batchClient.hostConfiguration.id);
      const events = settlementId === undefined ? [] : await closeEvents(store, settlementId);

      const results: ResultRow[] = [
        row("events", "store", eventStoreUrl ? "EventStoreDB" : "PostgreSQL"),
        row(
          `seeding ${formatNumber(transactions)} sales`,
          "sales/s through the API (non-2xx + errors)",
          `${formatNumber(transactions / seeded.seconds)} (${seeded.failed})`,
        ),
        ...batchRows(answer, during),
        row(
          `close of ${formatNumber(transactions)}`,
          "answered (202: closing, the close went on)",
          `${answer.status} after ${formatNumber(answeredAfter, 1)} s`,
          "201 or 202",
          answer.status === 201 || answer.status === 202 ? "yes" : "no",
        ),
        ...phaseRows(events, during),
        row(`close of ${formatNumber(transactions)}`, "left awaiting settlement in the read model", String(await awaitingSettlement(target, batchClient.hostConfiguration.id)), "0"),
        ...windows.flatMap((window, i) => windowRows(window, sales[i] ?? 0)),
        row("before vs after", "noise: after / before", `${formatNumber((afterRate / beforeRate) * 100, 1)} %`),
        row(
          "during vs without (mean of before and after)",
          "throughput cost of the close",
          `${formatNumber(cost * 100, 1)} %`,
          `<= ${GOAL_MAX_COST * 100} %`,
          cost <= GOAL_MAX_COST ? "yes" : "no",
        ),
      ];
      printResults(results);
    } finally {
      await store.close();
      await service.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
