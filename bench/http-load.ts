/**
 * What the benches that drive the real service over HTTP share: the service on a bench database,
 * clients that can pay, and autocannon runs (in a worker thread, so autocannon does not share the
 * servers' event loop) with their result rows.
 */
import { randomBytes, randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { sql } from "kysely";
import { loadConfig } from "../src/config.ts";
import type { HostConfigurationView } from "../src/domain/host-configurations/decider.ts";
import { createEventStoreDbEventStore } from "../src/eventstore/eventstoredb/event-store.ts";
import { createLogger } from "../src/logger.ts";
import { projections } from "../src/projections/all.ts";
import { measureLag } from "../src/projections/lag.ts";
import type { CardDetails } from "../src/processors/port.ts";
import { type Service, startService } from "../src/service.ts";
import { validBodies } from "../tests/support/host-configurations.ts";
import { startSimulatorProcess } from "../tests/support/process.ts";
import { everyProcessorAt } from "../tests/support/service.ts";
import { type CpuTime, cpuTime, cpuTimeSince } from "./cpu.ts";
import { type BenchTarget, formatNumber, type ResultRow } from "./support.ts";
import { Secret } from "../src/domain/secret.ts";

/** The service's pool size (src/db/connection.ts). */
export const POOL_SIZE = 20;
const WARM_UP_SECONDS = 3;
/** Autocannon cycles through this many request bodies, each with its own random amount. */
export const DISTINCT_BODIES = 256;
export const ADMIN_KEY = `bench-admin-${randomBytes(24).toString("hex")}`;

export interface Load {
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  /** Replace `[<id>]` in the request (here: the Idempotency-Key header) with a unique id. */
  uniqueIds?: boolean;
}

export interface RunShape {
  connections: number;
  seconds: number;
}

/** One autocannon run in a worker thread. */
function cannon(load: Load, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: load.url,
    connections,
    duration,
    workers: 1,
    method: "POST",
    headers: { "content-type": "application/json", ...load.headers },
    requests: load.bodies.map((body) => ({ method: "POST", body })),
    idReplacement: load.uniqueIds ?? false,
  });
}

export interface Measured extends RunShape {
  result: autocannon.Result;
  perSecond: number;
  /** The main thread's event loop (the servers; autocannon has its own thread) during the run. */
  loop: { utilization: number; activeMs: number };
  /** CPU time during the run, where the machine tells. */
  cpu: CpuTime | undefined;
}

/** A warm-up run, then (after `beforeRun`) the measured run. */
export async function measure(
  name: string,
  load: Load,
  { connections, seconds }: RunShape,
  beforeRun?: () => Promise<void>,
): Promise<Measured> {
  console.log(`${name}: ${WARM_UP_SECONDS} s warm-up...`);
  const warmUp = await cannon(load, connections, WARM_UP_SECONDS);
  if (warmUp.non2xx > 0 || warmUp.errors > 0) {
    throw new Error(`${name} warm-up: ${warmUp.non2xx} non-2xx answers, ${warmUp.errors} errors`);
  }
  await beforeRun?.();
  console.log(`${name}: ${connections} connections, ${seconds} s measured...`);
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = cpuTime();
  const result = await cannon(load, connections, seconds);
  const cpu = cpuTimeSince(cpuBefore);
  const loop = performance.eventLoopUtilization(loopBefore);
  return {
    connections,
    seconds,
    result,
    perSecond: result["2xx"] / result.duration,
    loop: { utilization: loop.utilization, activeMs: loop.active },
    cpu,
  };
}

export const ms = (value: number) => `${formatNumber(value, 2)} ms`;

/** The main thread's busy time a 2xx answer, in ms. */
export const busyPerAnswer = ({ loop, result }: Measured) => loop.activeMs / Math.max(1, result["2xx"]);

export function rowsOf(target: string, unit: string, measured: Measured): ResultRow[] {
  const { connections, seconds, result, perSecond, loop, cpu } = measured;
  const answered = Math.max(1, result["2xx"]);
  return [
    { target, metric: `${unit}/s (${connections} connections, ${seconds} s)`, value: formatNumber(perSecond), goal: "-", met: "-" },
    { target, metric: "latency p50", value: ms(result.latency.p50), goal: "-", met: "-" },
    { target, metric: "latency p99", value: ms(result.latency.p99), goal: "-", met: "-" },
    {
      target,
      metric: "main event loop busy (per 2xx)",
      value: `${formatNumber(loop.utilization * 100)} % (${formatNumber(busyPerAnswer(measured), 2)} ms)`,
      goal: "-",
      met: "-",
    },
    {
      target,
      metric: cpu?.eventStoreMs === undefined ? "CPU per 2xx: every core, PostgreSQL's share" : "CPU per 2xx: every core, PostgreSQL's, EventStoreDB's",
      value: cpu
        ? [cpu.machineMs, cpu.postgresMs, ...(cpu.eventStoreMs === undefined ? [] : [cpu.eventStoreMs])].map((spent) => ms(spent / answered)).join(", ")
        : "- (no /proc)",
      goal: "-",
      met: "-",
    },
    answersRow(target, result),
  ];
}

/** How many answers were 2xx, non-2xx, or errors; the goal is no failure. */
export function answersRow(target: string, result: autocannon.Result): ResultRow {
  const failed = result.non2xx + result.errors;
  return {
    target,
    metric: "2xx / non-2xx / errors",
    value: `${result["2xx"]} / ${result.non2xx} / ${result.errors}`,
    goal: "0 non-2xx, 0 errors",
    met: failed === 0 ? "yes" : "no",
  };
}

export interface BenchService extends Service {
  /** Where the simulator answers for all four processors. */
  simulatorUrl: string;
  /** How long the service waits for a processor. */
  processorTimeoutMs: number;
}

/**
 * The service in this process on the bench's database; the processor simulator in a process of
 * its own, as a real processor would be, so that its work does not share the service's event loop.
 */
export async function startBenchService(
  target: BenchTarget,
  environment: Record<string, string> = {},
  projections: "here" | "elsewhere" = "here",
): Promise<BenchService> {
  if (!target.url) throw new Error("the bench database has no URL");
  const simulator = await startSimulatorProcess();
  console.log(`processor simulator: in its own process at ${simulator.url}`);
  try {
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      DATABASE_URL: target.url,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_MASTER_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      CARD_FINGERPRINT_KEY: randomBytes(32).toString("base64"),
      RATE_LIMIT_PER_MINUTE: "100000000",
      LOG_LEVEL: "warn",
      ...everyProcessorAt(simulator.url),
      ...environment,
    });
    // The bench owns the database: the service must not close it.
    const service = await startService(config, createLogger(config.logLevel), { ...target.connection, close: async () => {} }, { projections });
    return {
      ...service,
      simulatorUrl: simulator.url,
      processorTimeoutMs: config.processorTimeoutMs,
      async stop() {
        try {
          await service.stop();
        } finally {
          await simulator.stop();
        }
      },
    };
  } catch (error) {
    await simulator.stop();
    throw error;
  }
}

/** An admin call that must answer 2xx; its JSON body, trusted to be an `Answer`. */
export async function call<Answer = Record<string, unknown>>(
  baseUrl: string,
  method: "GET" | "POST" | "PUT",
  path: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_KEY}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Answer;
}

export interface PayingClient {
  clientId: string;
  key: string;
  /** Its processor_a host configuration, as the API answered its creation. */
  hostConfiguration: HostConfigurationView;
}

/** A client with an API key and a processor_a host configuration. */
export async function createPayingClient(baseUrl: string, name: string): Promise<PayingClient> {
  const client = await call(baseUrl, "POST", "/v1/clients", { name });
  const clientId = String(client.id);
  const issued = await call(baseUrl, "POST", `/v1/clients/${clientId}/api-keys`, {});
  const hostConfiguration = await call<HostConfigurationView>(baseUrl, "POST", "/v1/host-configurations/processor_a", {
    ...validBodies.processor_a,
    clientId,
  });
  return { clientId, key: String(issued.key), hostConfiguration };
}

/** The simulator's approving test card, as a request body sends it. */
export const APPROVING_CARD_BODY = {
  number: "4242424242424242",
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 5,
  cvc: "123",
};

/** The same card as a connector takes it (a `Secret` prints as "[redacted]": never send it as JSON). */
export const APPROVING_CARD: CardDetails = {
  ...APPROVING_CARD_BODY,
  number: new Secret(APPROVING_CARD_BODY.number),
  cvc: new Secret(APPROVING_CARD_BODY.cvc),
};

/** Approved USD sales of random amounts (1.00 to 99.99) on the simulator's approving test card. */
export function saleBodies(): string[] {
  return Array.from({ length: DISTINCT_BODIES }, () =>
    JSON.stringify({
      processor: "processor_a",
      amount: randomInt(100, 10_000),
      currency: "USD",
      userId: `user_${randomInt(1, 1_000)}`,
      card: APPROVING_CARD_BODY,
    }),
  );
}

async function approvedSales(target: BenchTarget, clientId: string | undefined): Promise<number> {
  let query = target.connection.db
    .selectFrom("transactions")
    .select(sql<string>`count(*)::text`.as("count"))
    .where("type", "=", "sale")
    .where("status", "=", "approved");
  if (clientId !== undefined) query = query.where("client_id", "=", clientId);
  const row = await query.executeTakeFirst();
  return Number(row?.count ?? 0);
}

/**
 * Approved sales in the read model (of one client, when given), once the count stops moving:
 * requests still in flight when autocannon stopped finish first.
 */
export async function settledApprovedSales(target: BenchTarget, clientId?: string): Promise<number> {
  let previous = await approvedSales(target, clientId);
  for (;;) {
    await sleep(500);
    const current = await approvedSales(target, clientId);
    if (current === previous) return current;
    previous = current;
  }
}

/**
 * Waits until every projection of the service on `target` has applied what EventStoreDB holds:
 * the server keeps the events of earlier runs, which a fresh read model applies first, and the
 * sales measured meanwhile would pay for it (a first run of 20-33 sales/s against 81 after).
 */
export async function untilProjectionsCaughtUp(target: BenchTarget, eventStoreUrl: string): Promise<void> {
  const store = createEventStoreDbEventStore(eventStoreUrl);
  const started = performance.now();
  try {
    for (;;) {
      const lags = await Promise.all(projections.map((projection) => measureLag(target.connection.db, store, projection)));
      if (lags.every((lag) => lag.positionsBehind === 0n)) break;
      await sleep(1_000);
    }
  } finally {
    await store.close();
  }
  console.log(`projections caught up with what EventStoreDB held in ${formatNumber((performance.now() - started) / 1_000, 1)} s`);
}
