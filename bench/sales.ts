/**
 * Sales per second through HTTP, next to bare fastify routes, measured in the same run with the
 * same autocannon load: one that does one INSERT on the same PostgreSQL server, one that makes
 * one processor_a sale call to the same processor simulator, and two that do an insert, that call
 * and another insert. A sale must make that call
 * too, so the bare processor call is a ceiling on sales that no database work can lift; and a
 * request that made one insert and one processor call, nothing else, would cost the two bare
 * requests together (a derived row: the servers share one main thread). A sale that is never lost
 * must store its intent before the call and its outcome after it: the bare durable sale does only
 * that, once with a statement per insert and once with the inserts of overlapping requests
 * grouped, as the service groups its appends.
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * database, the processor simulator in a process of its own; a client, its API key and a
 * processor_a host configuration are created through the API. Each bare route is a plain fastify
 * app in this process with one POST route taking `{amount}`, measured in turn while the service
 * idles: the bare insert inserts a small row into that database through a `pg` pool of the
 * service's size; the bare processor call submits one approved USD sale through the real
 * processor_a connector, with the service's processor timeout and the client's host configuration,
 * and answers 201 when approved, 502 otherwise; the bare durable sales insert a pending row, make
 * that call and insert its outcome. Then the sales. Autocannon runs in a worker thread
 * so it does not share the servers' event loop. Beside the sales' rate it prints their CPU
 * ceiling: what the machine's cores could answer at the run's CPU a sale, counted on every core.
 *
 * With `--payment-method` (issue 33), it compares instead sales with a stored card
 * (`paymentMethodId`, one of 100 payment methods of the client, with a CVC beside it) against sales
 * of the same card inline, on the same service and client, alternating A B B A (inline, stored,
 * stored, inline; each run a warm-up, the database vacuumed and checkpointed, and the measured
 * run) for `--rounds` rounds (3): the vault's cost, the median of the rounds', whose goal is 10 %.
 *
 * With `--idle` (issue 52), it measures instead latency at idle: sales and bare durable sales with
 * grouped writes, one request at a time, 20 ms apart, alternating, `--samples` (300) of each after as
 * many to warm up; goal: the sales' p50 within 2 times the bare sale's.
 *
 * With `--eventstore URL` (issue 29), it compares instead sales with the events in EventStoreDB
 * against sales with them in PostgreSQL: two services in this process, each on a fresh database
 * of its own (read models in PostgreSQL on both) with a processor simulator of its own, measured
 * alternately E P P E; goal >= 0.7 of PostgreSQL's sales/s, p99 within 1.5 times.
 *
 * With `--projector process` (issue 34), the service's projections run in a process of their own
 * (`npm run start:projector` on the bench's database; with `--eventstore`, one for each of the two
 * services); `--projector here` (the default) runs them on the service's event loop.
 *
 * Usage: tsx bench/sales.ts [--database-url URL] [--seconds 10] [--connections 64]
 *                           [--idempotency-key none|unique] [--payment-method [--rounds 3]] [--idle [--samples 300]]
 *                           [--projector here|process]
 *                           [--eventstore esdb://127.0.0.1:2113?tls=false]
 */
import { fork } from "node:child_process";
import { randomInt } from "node:crypto";
import { once } from "node:events";
import { cpus } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import { sql } from "kysely";
import { bareProcessorCall, openBareInserts, sellDurably } from "./bare-durable-sale.ts";
import {
  APPROVING_CARD_BODY,
  busyPerAnswer,
  createPayingClient,
  DISTINCT_BODIES,
  type Load,
  measure,
  type Measured,
  ms,
  POOL_SIZE,
  rowsOf,
  type RunShape,
  saleBodies,
  settledApprovedSales,
  startBenchService,
  untilProjectionsCaughtUp,
} from "./http-load.ts";
import { type BenchTarget, formatNumber, intOption, median, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

/** Issue 33: a sale with a stored card costs at most this much more than one with the card inline. */
const GOAL_MAX_PAYMENT_METHOD_COST = 0.1;
/** Payment methods the stored-card sales pick from. */
const PAYMENT_METHODS = 100;

/** Issue 34: sales against the bare durable sale with its writes grouped, measured in the same run. */
const GOAL_GROUPED_RATIO = { none: 0.5, unique: 0.4 } as const;
/** ... with p99 latency within this multiple of that durable sale's p99. */
const GOAL_P99_MULTIPLE = 3;

/** Issue 29: sales with the events in EventStoreDB against PostgreSQL's, measured in the same run. */
const GOAL_EVENTSTOREDB_RATIO = 0.7;
const GOAL_EVENTSTOREDB_P99_MULTIPLE = 1.5;

const { values, serverUrl } = serverArgs(["seconds", "connections", "idempotency-key", "eventstore", "projector", "rounds", "samples"], ["payment-method", "idle"]);
const shape: RunShape = {
  seconds: intOption(values.seconds, 10, "seconds"),
  connections: intOption(values.connections, 64, "connections"),
};
/** `--idle`: requests of each kind measured, after as many again to warm up. */
const idleSamples = intOption(values.samples, 300, "samples");
/** `--payment-method`: A B B A rounds, whose median cost is the figure (one round's spreads too widely on a shared machine). */
const paymentMethodRounds = intOption(values.rounds, 3, "rounds");
const idempotencyOption = values["idempotency-key"] ?? "none";
if (idempotencyOption !== "none" && idempotencyOption !== "unique") {
  throw new Error(`--idempotency-key must be none or unique, not ${String(idempotencyOption)}`);
}
const idempotency: keyof typeof GOAL_GROUPED_RATIO = idempotencyOption;
const projectorOption = values.projector ?? "here";
if (projectorOption !== "here" && projectorOption !== "process") {
  throw new Error(`--projector must be here or process, not ${String(projectorOption)}`);
}

interface Answer {
  status: number;
  body: object;
}

/** A plain fastify app with one POST route that takes `{amount}` and answers it; measured, then closed. */
async function measureBareRoute(name: string, answer: (amount: number) => Promise<Answer>): Promise<Measured> {
  const app = Fastify({ logger: false });
  app.post(
    "/bare",
    { schema: { body: { type: "object", required: ["amount"], properties: { amount: { type: "integer" } } } } },
    async (request, reply) => {
      const { amount } = request.body as { amount: number };
      const { status, body } = await answer(amount);
      return reply.code(status).send(body);
    },
  );
  try {
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const bodies = Array.from({ length: DISTINCT_BODIES }, () => JSON.stringify({ amount: randomInt(100, 10_000) }));
    return await measure(name, { url: `${url}/bare`, headers: {}, bodies }, shape);
  } finally {
    await app.close();
  }
}

/**
 * The bare routes, one after another: one insert; one processor call; and a "durable sale", the
 * least a sale that survives a crash at any point must do: its intent inserted before the
 * processor is called and its outcome after (no read model, key, limit or hash chain), with a
 * statement per insert, then with its inserts grouped.
 */
async function measureBareRoutes(databaseUrl: string, call: ReturnType<typeof bareProcessorCall>) {
  const inserts = await openBareInserts(databaseUrl);
  try {
    const insert = await measureBareRoute("bare insert", async (amount) => ({ status: 201, body: await inserts.insert(amount, "approved") }));
    const statusOf = (outcome: { kind: string }) => (outcome.kind === "approved" ? 201 : 502);
    const processorCall = await measureBareRoute("bare processor call", async (amount) => {
      const outcome = await call(amount);
      return { status: statusOf(outcome), body: outcome };
    });
    const measureDurableSale = (name: string, insert: typeof inserts.insert) =>
      measureBareRoute(name, async (amount) => {
        const { outcome, row } = await sellDurably(insert, call, amount);
        return { status: statusOf(outcome), body: row };
      });
    const durableSale = await measureDurableSale("bare durable sale", inserts.insert);
    const groupedDurableSale = await measureDurableSale("bare durable sale, grouped writes", inserts.insertGrouped);
    return { insert, call: processorCall, durableSale, groupedDurableSale };
  } finally {
    await inserts.end();
  }
}

/** Issue 52: at idle, a sale's p50 latency within this multiple of the bare grouped durable sale's. */
const GOAL_IDLE_P50_MULTIPLE = 2;
/** At idle, one request at a time with this pause after each: nothing queues, no batch forms. */
const IDLE_PAUSE_MS = 20;

/**
 * Latency at idle: sales and bare durable sales with grouped writes (`sellDurably`), one request
 * at a time over one kept-alive connection each, alternating sale and bare sale (A B B A ...), so
 * that whatever else the machine does lands on both alike.
 */
async function compareAtIdle(saleUrl: string, key: string, databaseUrl: string, call: ReturnType<typeof bareProcessorCall>): Promise<ResultRow[]> {
  const inserts = await openBareInserts(databaseUrl);
  const app = Fastify({ logger: false });
  app.post("/bare", async (request, reply) => {
    const { amount } = request.body as { amount: number };
    const { outcome, row } = await sellDurably(inserts.insertGrouped, call, amount);
    return reply.code(outcome.kind === "approved" ? 201 : 502).send(row);
  });
  try {
    const bareUrl = `${await app.listen({ port: 0, host: "127.0.0.1" })}/bare`;
    const sales = saleBodies();
    const requests = {
      sale: (index: number) => ({ url: saleUrl, headers: { authorization: `Bearer ${key}` }, body: sales[index % sales.length]! }),
      bare: (index: number) => ({ url: bareUrl, headers: {}, body: JSON.stringify({ amount: 100 + (index % 9_900) }) }),
    };
    const latencies = { sale: [] as number[], bare: [] as number[] };
    console.log(`at idle: ${idleSamples} sales and ${idleSamples} bare durable sales after as many to warm up, ${IDLE_PAUSE_MS} ms apart...`);
    for (let index = 0; index < 2 * idleSamples; index += 1) {
      for (const kind of index % 2 === 0 ? (["sale", "bare"] as const) : (["bare", "sale"] as const)) {
        const { url, headers, body } = requests[kind](index);
        const started = performance.now();
        const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
        await response.text();
        const elapsed = performance.now() - started;
        if (response.status !== 201) throw new Error(`at idle, a ${kind} answered ${response.status}`);
        if (index >= idleSamples) latencies[kind].push(elapsed);
        await sleep(IDLE_PAUSE_MS);
      }
    }
    const quantile = (values: number[], q: number) => values.toSorted((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
    const multiple = quantile(latencies.sale, 0.5) / quantile(latencies.bare, 0.5);
    const latencyRow = (target: string, values: number[]): ResultRow => ({
      target,
      metric: `latency at idle, p50 / p90 (${values.length} requests)`,
      value: `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.9))}`,
      goal: "-",
      met: "-",
    });
    return [
      latencyRow("sales", latencies.sale),
      latencyRow("bare durable sale, writes grouped", latencies.bare),
      {
        target: "sales p50 / bare durable sale, writes grouped, p50 (at idle)",
        metric: "latency ratio",
        value: formatNumber(multiple, 2),
        goal: `<= ${GOAL_IDLE_P50_MULTIPLE}`,
        met: multiple <= GOAL_IDLE_P50_MULTIPLE ? "yes" : "no",
      },
    ];
  } finally {
    await app.close();
    await inserts.end();
  }
}

/**
 * Sales with a stored card against sales with the same card inline, A B B A, on one client: a
 * round's cost is 1 - stored / inline, over the two runs of each; the figure is the rounds' median.
 */
async function comparePaymentMethods(serviceUrl: string, key: string, target: BenchTarget): Promise<ResultRow[]> {
  const methodIds: string[] = [];
  for (let index = 0; index < PAYMENT_METHODS; index += 1) {
    const response = await fetch(`${serviceUrl}/v1/payment-methods`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ card: { number: APPROVING_CARD_BODY.number, expMonth: APPROVING_CARD_BODY.expMonth, expYear: APPROVING_CARD_BODY.expYear }, userId: `user_${index}` }),
    });
    if (response.status !== 201) throw new Error(`payment method creation answered ${response.status}: ${await response.text()}`);
    methodIds.push(String(((await response.json()) as { id: string }).id));
  }
  const inlineBodies = saleBodies();
  const storedBodies = inlineBodies.map((body, index) => {
    const { card, ...rest } = JSON.parse(body) as { card: { cvc?: string } };
    // A payment method belongs to the userId it was stored for (another is 422).
    const method = index % methodIds.length;
    return JSON.stringify({ ...rest, userId: `user_${method}`, paymentMethodId: methodIds[method], ...(card.cvc !== undefined && { cvc: card.cvc }) });
  });
  const loadOf = (bodies: string[]): Load => ({
    url: `${serviceUrl}/v1/transactions/sale`,
    headers: { authorization: `Bearer ${key}` },
    bodies,
  });
  const rate = (measured: Measured[]) => measured.reduce((sum, run) => sum + run.perSecond, 0) / measured.length;
  const each = (measured: Measured[]) => measured.map((run) => `${formatNumber(run.perSecond)}/s (${ms(busyPerAnswer(run))})`).join(", ");
  const rows: ResultRow[] = [];
  const costs: number[] = [];
  for (let round = 1; round <= paymentMethodRounds; round += 1) {
    const runs = { inline: [] as Measured[], stored: [] as Measured[] };
    for (const kind of ["inline", "stored", "stored", "inline"] as const) {
      const load = loadOf(kind === "inline" ? inlineBodies : storedBodies);
      runs[kind].push(await measure(`round ${round}, sales, card ${kind}`, load, shape, () => payVacuumDebt(target)));
    }
    const cost = 1 - rate(runs.stored) / rate(runs.inline);
    costs.push(cost);
    rows.push({
      target: `stored card vs inline, round ${round} (A B B A)`,
      metric: "sales/s (main thread a sale): inline; stored",
      value: `${each(runs.inline)}; ${each(runs.stored)}: cost ${formatNumber(cost * 100, 1)} %`,
      goal: "-",
      met: "-",
    });
  }
  const medianCost = median(costs);
  rows.push({
    target: `stored card vs inline, median of ${paymentMethodRounds} rounds`,
    metric: "throughput cost, 1 - stored / inline",
    value: `${formatNumber(medianCost * 100, 1)} % (rounds: ${costs.map((cost) => `${formatNumber(cost * 100, 1)} %`).join(", ")})`,
    goal: `<= ${GOAL_MAX_PAYMENT_METHOD_COST * 100} %`,
    met: medianCost <= GOAL_MAX_PAYMENT_METHOD_COST ? "yes" : "no",
  });
  return rows;
}

/**
 * Vacuums, analyzes and checkpoints the bench database before a measured run. Otherwise
 * autovacuum and checkpoints, seconds of work on a growing database, land in whichever run they
 * happen to (a run half as fast as the same build's next one), not in each build's alike.
 */
async function payVacuumDebt(target: BenchTarget): Promise<void> {
  await sql`vacuum analyze`.execute(target.connection.db);
  await sql`checkpoint`.execute(target.connection.db);
}

/**
 * The most answers a second the machine's cores could give at the run's CPU an answer, every
 * process's share counted (the service's threads, a projector, PostgreSQL, the simulator, the
 * load): no placement of the work on threads or processes lifts a rate past it.
 */
function cpuCeiling({ cpu, result }: Measured): number | undefined {
  if (!cpu || result["2xx"] === 0) return undefined;
  // /proc/stat's busy time adds up every online core, whatever this process's affinity.
  return (cpus().length * 1_000) / (cpu.machineMs / result["2xx"]);
}

/** A service on a fresh database, events in EventStoreDB at `eventStoreUrl` or else in that database, and a paying client of it. */
async function openSalesService(eventStoreUrl: string | undefined) {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  let projector: Awaited<ReturnType<typeof forkProjector>> | undefined;
  try {
    const databaseUrl = target.url;
    if (!databaseUrl) throw new Error("the bench database has no URL");
    const environment: Record<string, string> = eventStoreUrl ? { EVENTSTORE_URL: eventStoreUrl } : {};
    projector = projectorOption === "process" ? await forkProjector(databaseUrl, environment) : undefined;
    const service = await startBenchService(target, environment, projector ? "elsewhere" : "here");
    const { key } = await createPayingClient(service.url, "Bench");
    if (eventStoreUrl) await untilProjectionsCaughtUp(target, eventStoreUrl);
    const load: Load = { url: `${service.url}/v1/transactions/sale`, headers: { authorization: `Bearer ${key}` }, bodies: saleBodies() };
    return {
      load,
      async close() {
        try {
          await service.stop();
          await projector?.stop();
        } finally {
          await target.close();
        }
      },
    };
  } catch (error) {
    await projector?.stop();
    await target.close();
    throw error;
  }
}

/** Sales with the events in EventStoreDB against sales with them in PostgreSQL, E P P E, on services side by side. */
async function compareEventStores(eventStoreUrl: string): Promise<ResultRow[]> {
  const eventstoredb = await openSalesService(eventStoreUrl);
  try {
    const postgres = await openSalesService(undefined);
    try {
      const services = { eventstoredb, postgres };
      const runs = { eventstoredb: [] as Measured[], postgres: [] as Measured[] };
      // This process's CPU per sale, the servers' and other work on the machine left out: under a
      // shared machine's load the event loop's busy time also counts the time it waited for a core.
      const cpuPerSale = { eventstoredb: [] as number[], postgres: [] as number[] };
      for (const kind of ["eventstoredb", "postgres", "postgres", "eventstoredb"] as const) {
        let cpuBefore = process.cpuUsage();
        const measured = await measure(`sales, events in ${kind}`, services[kind].load, shape, async () => {
          cpuBefore = process.cpuUsage();
        });
        const { user, system } = process.cpuUsage(cpuBefore);
        runs[kind].push(measured);
        cpuPerSale[kind].push((user + system) / 1_000 / Math.max(1, measured.result["2xx"]));
      }
      const cpuRow = (kind: keyof typeof cpuPerSale): ResultRow => ({
        target: `sales, events in ${kind === "eventstoredb" ? "EventStoreDB" : "PostgreSQL"}`,
        metric: "this process's CPU per 2xx, runs 1 and 2 (services, autocannon)",
        value: cpuPerSale[kind].map((value) => ms(value)).join(", "),
        goal: "-",
        met: "-",
      });
      const mean = (measured: Measured[], of: (run: Measured) => number) => measured.reduce((sum, run) => sum + of(run), 0) / measured.length;
      const rate = (run: Measured) => run.perSecond;
      const p99 = (run: Measured) => run.result.latency.p99;
      const ratio = mean(runs.eventstoredb, rate) / mean(runs.postgres, rate);
      const p99Multiple = mean(runs.eventstoredb, p99) / mean(runs.postgres, p99);
      return [
        ...runs.eventstoredb.flatMap((run, index) => rowsOf(`sales, events in EventStoreDB (run ${index + 1})`, "sales", run)),
        ...runs.postgres.flatMap((run, index) => rowsOf(`sales, events in PostgreSQL (run ${index + 1})`, "sales", run)),
        cpuRow("eventstoredb"),
        cpuRow("postgres"),
        {
          target: "EventStoreDB / PostgreSQL (E P P E)",
          metric: "sales/s ratio of the means",
          value: `${formatNumber(ratio, 2)} (${formatNumber(mean(runs.eventstoredb, rate))} vs ${formatNumber(mean(runs.postgres, rate))})`,
          goal: `>= ${GOAL_EVENTSTOREDB_RATIO}`,
          met: ratio >= GOAL_EVENTSTOREDB_RATIO ? "yes" : "no",
        },
        {
          target: "EventStoreDB / PostgreSQL (E P P E)",
          metric: "p99 ratio of the means",
          value: `${formatNumber(p99Multiple, 2)} (${formatNumber(mean(runs.eventstoredb, p99))} vs ${formatNumber(mean(runs.postgres, p99))} ms)`,
          goal: `<= ${GOAL_EVENTSTOREDB_P99_MULTIPLE}`,
          met: p99Multiple <= GOAL_EVENTSTOREDB_P99_MULTIPLE ? "yes" : "no",
        },
      ];
    } finally {
      await postgres.close();
    }
  } finally {
    await eventstoredb.close();
  }
}

/** `npm run start:projector` on the bench's database, running once it has said so; stopped by `stop()`. */
async function forkProjector(databaseUrl: string, environment: Record<string, string> = {}) {
  const child = fork(fileURLToPath(new URL("../src/main.ts", import.meta.url)), ["projector"], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: "memory://", LOG_LEVEL: "warn", ...environment },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = once(child, "exit");
  const [message] = (await Promise.race([once(child, "message"), exited])) as unknown[];
  if (message !== "running") throw new Error("the projector process exited before it ran");
  console.log("projections: in a process of their own (start:projector)");
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function main(): Promise<void> {
  if (typeof values.eventstore === "string") {
    printResults(await compareEventStores(values.eventstore));
    return;
  }
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  try {
    const databaseUrl = target.url;
    if (!databaseUrl) throw new Error("the bench database has no URL");
    const projector = projectorOption === "process" ? await forkProjector(databaseUrl) : undefined;
    const service = await startBenchService(target, {}, projector ? "elsewhere" : "here");
    try {
      const { key, hostConfiguration } = await createPayingClient(service.url, "Bench");
      if (values["payment-method"]) {
        printResults(await comparePaymentMethods(service.url, key, target));
        return;
      }
      if (values.idle) {
        const call = bareProcessorCall(service.simulatorUrl, service.processorTimeoutMs, hostConfiguration);
        printResults(await compareAtIdle(`${service.url}/v1/transactions/sale`, key, databaseUrl, call));
        return;
      }

      // The bare routes first, while the service idles; then the sales.
      const {
        insert: bare,
        call: bareProcessor,
        durableSale: bareDurableSale,
        groupedDurableSale,
      } = await measureBareRoutes(databaseUrl, bareProcessorCall(service.simulatorUrl, service.processorTimeoutMs, hostConfiguration));

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
      // Each bare route keeps the main thread busy: one request doing both costs the sum of their times.
      const floorPerSecond = 1 / (1 / bare.perSecond + 1 / bareProcessor.perSecond);
      const floorP99 = bare.result.latency.p99 + bareProcessor.result.latency.p99;
      const groupedRatio = sales.perSecond / groupedDurableSale.perSecond;
      const goalRatio = GOAL_GROUPED_RATIO[idempotency];
      const p99Multiple = sales.result.latency.p99 / groupedDurableSale.result.latency.p99;
      const ceiling = cpuCeiling(sales);
      const salesTarget = `sales (idempotency key: ${idempotency})`;
      /** A durable sale's rows, then its throughput against the floor. */
      const durableSaleRows = (target: string, ratioTarget: string, measured: Measured): ResultRow[] => [
        ...rowsOf(target, "durable sales", measured),
        {
          target: `${ratioTarget} / floor`,
          metric: "throughput ratio",
          value: formatNumber(measured.perSecond / floorPerSecond, 2),
          goal: "-",
          met: "-",
        },
      ];
      const results: ResultRow[] = [
        ...rowsOf(salesTarget, "sales", sales),
        {
          target: salesTarget,
          metric: "approved sales in read model vs 2xx",
          value: `${approved} vs ${twoXx}`,
          goal: `within ${shape.connections} (in flight at stop)`,
          met: Math.abs(approved - twoXx) <= shape.connections ? "yes" : "no",
        },
        ...rowsOf(`bare insert (pg pool ${POOL_SIZE})`, "inserts", bare),
        ...rowsOf("bare processor call (processor_a sale)", "calls", bareProcessor),
        {
          target: "floor: one insert + one processor call",
          metric: "derived rate 1 / (1/inserts + 1/calls); p99 of both added",
          value: `${formatNumber(floorPerSecond)}/s; ${formatNumber(floorP99, 2)} ms`,
          goal: "-",
          met: "-",
        },
        {
          target: "sales / floor",
          metric: "throughput ratio",
          value: formatNumber(sales.perSecond / floorPerSecond, 2),
          goal: "-",
          met: "-",
        },
        ...durableSaleRows("bare durable sale (insert, call, insert)", "bare durable sale", bareDurableSale),
        ...durableSaleRows("bare durable sale, writes grouped", "bare durable sale, writes grouped", groupedDurableSale),
        {
          target: "sales / bare durable sale",
          metric: "throughput ratio",
          value: formatNumber(sales.perSecond / bareDurableSale.perSecond, 2),
          goal: "-",
          met: "-",
        },
        {
          target: `${salesTarget} / bare durable sale, writes grouped`,
          metric: "throughput ratio",
          value: formatNumber(groupedRatio, 2),
          goal: `>= ${goalRatio}`,
          met: groupedRatio >= goalRatio ? "yes" : "no",
        },
        {
          target: `sales' CPU ceiling on this machine's ${cpus().length} cores`,
          metric: "cores / CPU per 2xx (every process); of the grouped durable sale",
          value: ceiling === undefined ? "- (no /proc, or no 2xx)" : `${formatNumber(ceiling)}/s; ${formatNumber(ceiling / groupedDurableSale.perSecond, 2)}`,
          goal: "-",
          met: "-",
        },
        {
          target: "sales p99 / bare durable sale, writes grouped, p99",
          metric: "latency ratio",
          value: formatNumber(p99Multiple, 2),
          goal: `<= ${GOAL_P99_MULTIPLE}`,
          met: p99Multiple <= GOAL_P99_MULTIPLE ? "yes" : "no",
        },
        {
          target: "sales / bare insert, sales / bare processor call",
          metric: "throughput ratios",
          value: `${formatNumber((sales.perSecond / bare.perSecond) * 100, 1)} %, ${formatNumber((sales.perSecond / bareProcessor.perSecond) * 100, 1)} %`,
          goal: "-",
          met: "-",
        },
      ];
      printResults(results);
    } finally {
      await service.stop();
      await projector?.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
