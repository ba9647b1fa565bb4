/**
 * Sales per second through HTTP, next to a bare fastify route that does one INSERT, measured in
 * the same run against the same PostgreSQL server with the same autocannon load.
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * database, the processor simulator in a process of its own; a client, its API key and a
 * processor_a host configuration are created through the API. The bare route is a plain fastify
 * app in this process whose one POST route inserts a small row into that database through a `pg`
 * pool of the service's size. Autocannon runs in a worker thread so it does not share the servers'
 * event loop.
 *
 * Usage: tsx bench/sales.ts [--database-url URL] [--seconds 10] [--connections 64]
 *                           [--idempotency-key none|unique]
 */
import { randomInt, randomUUID } from "node:crypto";
import Fastify from "fastify";
import pg from "pg";
import {
  createPayingClient,
  DISTINCT_BODIES,
  type Load,
  measure,
  type Measured,
  POOL_SIZE,
  rowsOf,
  type RunShape,
  saleBodies,
  settledApprovedSales,
  startBenchService,
} from "./http-load.ts";
import { formatNumber, intOption, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

const GOAL_RATIO = 0.5;

const { values, serverUrl } = serverArgs(["seconds", "connections", "idempotency-key"]);
const shape: RunShape = {
  seconds: intOption(values.seconds, 10, "seconds"),
  connections: intOption(values.connections, 64, "connections"),
};
const idempotency = values["idempotency-key"] ?? "none";
if (idempotency !== "none" && idempotency !== "unique") {
  throw new Error(`--idempotency-key must be none or unique, not ${String(idempotency)}`);
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
    const measured = await measure("bare insert", { url: `${url}/bare`, headers: {}, bodies }, shape);
    const { rows } = await pool.query<{ count: string }>("select count(*)::text as count from bare_inserts");
    console.log(`bare insert: ${rows[0]?.count} rows inserted (warm-up included)`);
    return measured;
  } finally {
    await app.close();
    await pool.end();
  }
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  try {
    const databaseUrl = target.url;
    if (!databaseUrl) throw new Error("the bench database has no URL");
    const service = await startBenchService(target);
    try {
      const { key } = await createPayingClient(service.url, "Bench");

      // The bare route first, while the service idles; then the sales.
      const bare = await measureBareInsert(databaseUrl);

      const unique = idempotency === "unique";
      const load: Load = {
        url: `${service.url}/v1/transactions/sale`,
        headers: { authorization: `Bearer ${key}`, ...(unique ? { "idempotency-key": "bench-[<id>]" } : {}) },
        bodies: saleBodies(),
        uniqueIds: unique,
      };
      let approvedBefore = 0;
      const sales = await measure("sales", load, shape, async () => {
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
          goal: `within ${shape.connections} (in flight at stop)`,
          met: Math.abs(approved - twoXx) <= shape.connections ? "yes" : "no",
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
