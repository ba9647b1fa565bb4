/**
 * Sales per second through HTTP, next to a bare fastify route that does one INSERT, measured in
 * the same run against the same PostgreSQL server with the same autocannon load.
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * database with the built-in processor simulator; a client, its API key and a processor_a host
 * configuration are created through the API. The bare route is a plain fastify app in this
 * process whose one POST route inserts a small row into that database through a `pg` pool of the
 * service's size. Autocannon runs in a worker thread so it does not share the servers' event loop.
 *
 * Usage: tsx bench/sales.ts [--database-url URL] [--seconds 10] [--connections 64]
 *                           [--idempotency-key none|unique]
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import Fastify from "fastify";
import { sql } from "kysely";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { startService } from "../src/service.ts";
import { validBodies } from "../tests/support/host-configurations.ts";
import { type BenchTarget, formatNumber, intOption, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

const WARM_UP_SECONDS = 3;
/** The service's pool size (src/db/connection.ts); the bare route gets the same. */
const POOL_SIZE = 20;
const GOAL_RATIO = 0.5;
/** Autocannon cycles through this many request bodies, each with its own random amount. */
const DISTINCT_BODIES = 256;
const ADMIN_KEY = `bench-admin-${randomBytes(24).toString("hex")}`;

const { values, serverUrl } = serverArgs(["seconds", "connections", "idempotency-key"]);
const seconds = intOption(values.seconds, 10, "seconds");
const connections = intOption(values.connections, 64, "connections");
const idempotency = values["idempotency-key"] ?? "none";
if (idempotency !== "none" && idempotency !== "unique") {
  throw new Error(`--idempotency-key must be none or unique, not ${String(idempotency)}`);
}

interface Load {
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  /** Replace `[<id>]` in the request (here: the Idempotency-Key header) with a unique id. */
  uniqueIds?: boolean;
}

/** One autocannon run in a worker thread. */
function cannon(load: Load, duration: number): Promise<autocannon.Result> {
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

interface Measured {
  result: autocannon.Result;
  perSecond: number;
  /** The main thread's event loop (both servers; autocannon has its own thread) during the run. */
  loop: { utilization: number; activeMs: number };
}

/** A warm-up run, then (after `beforeRun`) the measured run. */
async function measure(name: string, load: Load, beforeRun?: () => Promise<void>): Promise<Measured> {
  console.log(`${name}: ${WARM_UP_SECONDS} s warm-up...`);
  const warmUp = await cannon(load, WARM_UP_SECONDS);
  if (warmUp.non2xx > 0 || warmUp.errors > 0) {
    throw new Error(`${name} warm-up: ${warmUp.non2xx} non-2xx answers, ${warmUp.errors} errors`);
  }
  await beforeRun?.();
  console.log(`${name}: ${connections} connections, ${seconds} s measured...`);
  const loopBefore = performance.eventLoopUtilization();
  const result = await cannon(load, seconds);
  const loop = performance.eventLoopUtilization(loopBefore);
  return {
    result,
    perSecond: result["2xx"] / result.duration,
    loop: { utilization: loop.utilization, activeMs: loop.active },
  };
}

const ms = (value: number) => `${formatNumber(value, 2)} ms`;

function rowsOf(target: string, unit: string, { result, perSecond, loop }: Measured): ResultRow[] {
  const failed = result.non2xx + result.errors;
  const busyPerRequest = loop.activeMs / Math.max(1, result["2xx"]);
  return [
    { target, metric: `${unit}/s (${connections} connections, ${seconds} s)`, value: formatNumber(perSecond), goal: "-", met: "-" },
    { target, metric: "latency p50", value: ms(result.latency.p50), goal: "-", met: "-" },
    { target, metric: "latency p99", value: ms(result.latency.p99), goal: "-", met: "-" },
    {
      target,
      metric: "main event loop busy (per 2xx)",
      value: `${formatNumber(loop.utilization * 100)} % (${formatNumber(busyPerRequest, 2)} ms)`,
      goal: "-",
      met: "-",
    },
    {
      target,
      metric: "2xx / non-2xx / errors",
      value: `${result["2xx"]} / ${result.non2xx} / ${result.errors}`,
      goal: "0 non-2xx, 0 errors",
      met: failed === 0 ? "yes" : "no",
    },
  ];
}

/** A plain fastify app with one route that inserts one small row; measured, then closed. */
async function measureBareInsert(databaseUrl: string): Promise<Measured> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  pool.on("error", () => {});
  await pool.query(
    "create table bare_inserts (id uuid primary key, amount integer not null, created_at timestamptz not null default now())",
  );
  const app = Fastify({ logger: false });
  app.post(
    "/bare",
    { schema: { body: { type: "object", required: ["amount"], properties: { amount: { type: "integer" } } } } },
    async (request, reply) => {
      const { amount } = request.body as { amount: number };
      const { rows } = await pool.query<{ id: string; amount: number; created_at: Date }>({
        name: "bare_insert",
        text: "insert into bare_inserts (id, amount) values ($1, $2) returning id, amount, created_at",
        values: [randomUUID(), amount],
      });
      const row = rows[0];
      if (!row) throw new Error("the insert returned no row");
      return reply.code(201).send({ id: row.id, amount: row.amount, createdAt: row.created_at.toISOString() });
    },
  );
  try {
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const bodies = Array.from({ length: DISTINCT_BODIES }, () => JSON.stringify({ amount: randomInt(100, 10_000) }));
    const measured = await measure("bare insert", { url: `${url}/bare`, headers: {}, bodies });
    const { rows } = await pool.query<{ count: string }>("select count(*)::text as count from bare_inserts");
    console.log(`bare insert: ${rows[0]?.count} rows inserted (warm-up included)`);
    return measured;
  } finally {
    await app.close();
    await pool.end();
  }
}

/** An admin-side POST that must answer 201; its JSON body. */
async function call(baseUrl: string, path: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

async function approvedSales(target: BenchTarget): Promise<number> {
  const { rows } = await sql<{ count: string }>`
    select count(*)::text as count from transactions where type = 'sale' and status = 'approved'`.execute(
    target.connection.db,
  );
  return Number(rows[0]?.count ?? 0);
}

/** Until the count stops moving: requests still in flight when autocannon stopped finish first. */
async function settledApprovedSales(target: BenchTarget): Promise<number> {
  let previous = await approvedSales(target);
  for (;;) {
    await sleep(500);
    const current = await approvedSales(target);
    if (current === previous) return current;
    previous = current;
  }
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  try {
    const databaseUrl = target.url;
    if (!databaseUrl) throw new Error("the bench database has no URL");
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "memory://",
      DATABASE_URL: databaseUrl,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_MASTER_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      CARD_FINGERPRINT_KEY: randomBytes(32).toString("base64"),
      RATE_LIMIT_PER_MINUTE: "100000000",
      LOG_LEVEL: "warn",
    });
    // The bench owns the database: the service must not close it.
    const service = await startService(config, createLogger(config.logLevel), { ...target.connection, close: async () => {} });
    try {
      const client = await call(service.url, "/v1/clients", ADMIN_KEY, { name: "Bench" });
      const clientId = String(client.id);
      const issued = await call(service.url, `/v1/clients/${clientId}/api-keys`, ADMIN_KEY, {});
      const clientKey = String(issued.key);
      await call(service.url, "/v1/host-configurations/processor_a", ADMIN_KEY, { ...validBodies.processor_a, clientId });

      // The bare route first, while the service idles; then the sales.
      const bare = await measureBareInsert(databaseUrl);

      const expYear = new Date().getUTCFullYear() + 5;
      const bodies = Array.from({ length: DISTINCT_BODIES }, () =>
        JSON.stringify({
          processor: "processor_a",
          amount: randomInt(100, 10_000),
          currency: "USD",
          userId: `user_${randomInt(1, 1_000)}`,
          card: { number: "4242424242424242", expMonth: 12, expYear, cvc: "123" },
        }),
      );
      const unique = idempotency === "unique";
      const load: Load = {
        url: `${service.url}/v1/transactions/sale`,
        headers: { authorization: `Bearer ${clientKey}`, ...(unique ? { "idempotency-key": "bench-[<id>]" } : {}) },
        bodies,
        uniqueIds: unique,
      };
      let approvedBefore = 0;
      const sales = await measure("sales", load, async () => {
        approvedBefore = await settledApprovedSales(target);
      });
      const approved = (await settledApprovedSales(target)) - approvedBefore;
      const twoXx = sales.result["2xx"];
      const ratio = sales.perSecond / bare.perSecond;
      const results: ResultRow[] = [
        ...rowsOf(`sales (idempotency key: ${idempotency})`, "sales", sales),
        {
          target: `sales (idempotency key: ${idempotency})`,
          metric: "approved sales in read model vs 2xx",
          value: `${approved} vs ${twoXx}`,
          goal: `within ${connections} (in flight at stop)`,
          met: Math.abs(approved - twoXx) <= connections ? "yes" : "no",
        },
        ...rowsOf(`bare insert (pg pool ${POOL_SIZE})`, "inserts", bare),
        {
          target: "sales / bare",
          metric: "throughput ratio",
          value: `${formatNumber(ratio * 100, 1)} %`,
          goal: `>= ${GOAL_RATIO * 100} %`,
          met: ratio >= GOAL_RATIO ? "yes" : "no",
        },
      ];
      printResults(results);
    } finally {
      await service.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
