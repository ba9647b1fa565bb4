/**
 * `npm run bench:capacity` (issue 52): where the service stops keeping up. Open-model load
 * (Poisson arrivals at a fixed rate, never waiting for answers) of a merchant's mix, stepped up
 * rate by rate; the processor simulator answers after a log-normal latency (p50 120 ms, p99
 * 380 ms) and times out 0.5 % of operations; one webhook endpoint for every event posts to a local
 * receiver. Around each step (half before, half after) the bench's bare grouped durable sale
 * (bench:sales) runs at the same rate as the reference. The knee is the highest step with no 5xx, platform-added p99 within 3 ×
 * the reference's, projection lag p99 ≤ 1 s and webhook lag p99 ≤ 2 s.
 *
 * The service, the simulator and the receiver are processes of their own (/proc gives each one's
 * CPU); the load generator and the reference route run in this process. Projection lag is read
 * every 2 s from `GET /v1/operations/status` (each projection's seconds behind the log's head, the
 * largest kept); webhook lag is a delivery's arrival at the receiver less its event's
 * time (`createdAt`).
 *
 * Usage: tsx bench/capacity/main.ts [--store pglite|postgres] [--steps 50,100,200] [--step-seconds 60]
 *          [--reference-seconds 20] [--payment-methods 50] [--chart docs/capacity-<store>.svg]
 *          [--database-url URL] [--smoke] [--cpu-profile DIR] [--topology all|split] [--instances N] [--eventstore URL [--eventstore-pid PID]]
 *
 * `--soak-minutes N [--window-seconds 300]`: the first of `--steps` held for N minutes instead of
 * stepping, measured a window at a time (bench/capacity/soak.ts).
 *
 * `--topology split` (PostgreSQL only): the API (`start:api`) and the projections
 * (`start:projector`) in two processes instead of one (`npm start`); CPU counts both.
 * `--instances N` (PostgreSQL only): N service processes (`npm start`, or `start:api` with
 * `split`) on the one database, the arrivals sent to each in turn as a round-robin load balancer
 * would; CPU and memory count them all, the event-loop utilization is the busiest one's.
 * `--cpu-profile DIR`: the service's CPU profile over the whole run, written to DIR when it stops.
 *
 * `--eventstore URL` (with `--store postgres`): the events in that EventStoreDB / KurrentDB server
 * (a server of its own for the run: the bench appends to it and never deletes), the read models in
 * PostgreSQL. `--eventstore-pid PID`: that server's process, whose CPU then counts too (column "es").
 */
import { randomBytes, randomInt } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { z } from "zod";
import { everyProcessorAt } from "../../tests/support/service.ts";
import { ADMIN_KEY, POOL_SIZE } from "../http-load.ts";
import { type BenchTarget, formatNumber, openTarget, serverArgs } from "../support.ts";
import { capacityChart } from "./chart.ts";
import { runOpenLoad } from "./load.ts";
import { MIX, merchantMix, setUpMerchant } from "./mix.ts";
import {
  type Child,
  processCpuMs,
  processCpuMsOrZero,
  residentMiB,
  type ServiceChild,
  startProjectorChild,
  startReceiverChild,
  startServiceChild,
  startSimulatorChild,
} from "./processes.ts";
import { startReference } from "./reference.ts";
import { addedP99ByKind, answerCounts, kneeOf, KNEE, latencies, type Measured, missed, p99OrInfinity, printSteps, type Step } from "./report.ts";
import { soak } from "./soak.ts";

const LATENCY = { SIMULATOR_LATENCY_P50_MS: "120", SIMULATOR_LATENCY_P99_MS: "380", SIMULATOR_TIMEOUT_RATE: "0.005" };
/** The service's default: a processor call not answered within it leaves the transaction pending (504). */
const PROCESSOR_TIMEOUT_MS = 10_000;

const positiveInt = z.coerce.number().int().positive();
const optionsSchema = z.object({
  store: z.enum(["pglite", "postgres"]).default("pglite"),
  steps: z
    .string()
    .default("50,100,200,300,400,500")
    .transform((list) => list.split(",").map(Number))
    .pipe(z.array(z.number().positive()).min(1)),
  "step-seconds": positiveInt.default(60),
  "reference-seconds": positiveInt.default(20),
  "payment-methods": positiveInt.default(50),
  chart: z.string().optional(),
  "cpu-profile": z.string().optional(),
  topology: z.enum(["all", "split"]).default("all"),
  instances: positiveInt.default(1),
  "soak-minutes": positiveInt.optional(),
  "window-seconds": positiveInt.default(300),
  eventstore: z.string().optional(),
  "eventstore-pid": positiveInt.optional(),
  smoke: z.boolean().default(false),
});

const { values, serverUrl } = serverArgs(
  ["store", "steps", "step-seconds", "reference-seconds", "payment-methods", "chart", "cpu-profile", "topology", "instances", "soak-minutes", "window-seconds", "eventstore", "eventstore-pid"],
  ["smoke"],
);
const parsed = optionsSchema.parse(values);
/** Where the events are: the store's own tables, or the EventStoreDB / KurrentDB server named. */
const eventsIn = parsed.eventstore === undefined ? parsed.store : "kurrentdb";
/** `--smoke`: two short steps, to see the harness work end to end in about a minute. */
const options = parsed.smoke
  ? { ...parsed, steps: [10, 20], "step-seconds": 5, "reference-seconds": 3, "payment-methods": 5, chart: parsed.chart ?? path.join(tmpdir(), "capacity-smoke.svg") }
  : { ...parsed, chart: parsed.chart ?? `docs/capacity-${eventsIn}.svg` };

const operationsStatus = z.object({
  projections: z.array(z.object({ projection: z.string(), secondsBehind: z.number() })),
  webhooks: z.object({ pending: z.number().int() }),
  pending: z.object({ byAge: z.record(z.string(), z.number().int()) }),
});

/** The service's operations status; undefined when it was refused (an overloaded service sheds it with 503) or timed out. */
async function readStatus(service: ServiceChild) {
  try {
    const response = await fetch(`${service.url}/v1/operations/status`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
    });
    if (!response.ok) return undefined;
    return operationsStatus.parse(await response.json());
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") return undefined;
    throw error;
  }
}

/**
 * How often the projection lag is read. Each read measures every projection's lag, counts pending
 * transactions and the webhook queue: on the embedded database, on the service's own thread, it
 * takes 100-200 ms of a loaded machine, so reading it more often would load what it measures.
 */
const STATUS_INTERVAL_MS = 2_000;
const STATUS_TIMEOUT_MS = 10_000;

/** Reads the projection lag (from the first instance) and the instances' memory every STATUS_INTERVAL_MS until `stop()`. */
function watch(services: readonly ServiceChild[]) {
  const service = services[0]!;
  const lagsSeconds: number[] = [];
  let webhookQueue = 0;
  let rssMiB = 0;
  let running = true;
  const readsMs: number[] = [];
  let refused = 0;
  const done = (async () => {
    while (running) {
      const startedAt = performance.now();
      const status = await readStatus(service);
      readsMs.push(performance.now() - startedAt);
      if (status) {
        lagsSeconds.push(Math.max(...status.projections.map((projection) => projection.secondsBehind)));
        webhookQueue = status.webhooks.pending;
      } else {
        refused += 1;
      }
      rssMiB = Math.max(rssMiB, services.reduce((sum, instance) => sum + residentMiB(instance.pid), 0));
      await sleep(STATUS_INTERVAL_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { lagsSeconds, webhookQueue, rssMiB, refused, statusReadMs: readsMs.reduce((sum, ms) => sum + ms, 0) / Math.max(1, readsMs.length) };
    },
  };
}

/**
 * CPU time so far of each PostgreSQL backend connected to the bench database, in ms by pid: not
 * the server's other databases (other work on this machine) nor its shared background processes.
 */
async function backendsCpuMs(target: BenchTarget): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database()`.execute(target.connection.db);
  return new Map(rows.map(({ pid }) => [pid, processCpuMsOrZero(pid)]));
}

/** What the backends alive at `after` spent since `before` (one that closed meanwhile took its time with it). */
const backendsSpentMs = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);

/** Waits (at most `limitMs`) until the projections caught up and the webhook queue drained, so a step does not start on the last one's backlog. */
async function settle(service: ServiceChild, limitMs: number): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    const status = await readStatus(service);
    if (status?.webhooks.pending === 0 && status.projections.every((projection) => projection.secondsBehind === 0)) return;
    await sleep(500);
  }
}

async function main(): Promise<void> {
  const [load1, load5] = loadavg();
  const where = options.eventstore === undefined ? options.store : `postgres, events in ${options.eventstore}`;
  const processes = options.topology === "split" ? `${options.instances} API process(es) and a projector` : `${options.instances} process(es)`;
  console.log(`bench:capacity on ${where} (${processes}); load average at start ${formatNumber(load1 ?? 0, 2)} (1 min), ${formatNumber(load5 ?? 0, 2)} (5 min)`);
  const load =
    options["soak-minutes"] === undefined
      ? `steps ${options.steps.join(", ")}/s of ${options["step-seconds"]} s, reference ${options["reference-seconds"]} s a step (half before, half after)`
      : `soak at ${options.steps[0]}/s for ${options["soak-minutes"]} min, windows of ${options["window-seconds"]} s, no reference`;
  console.log(`${load}; mix ${JSON.stringify(MIX)}`);
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  const dataDir = await mkdtemp(path.join(tmpdir(), "capacity-"));
  const simulator = await startSimulatorChild(LATENCY);
  const receiver = await startReceiverChild();
  const services: ServiceChild[] = [];
  let projector: Child | undefined;
  try {
    if (!target.url) throw new Error("the bench database has no URL");
    if (options.topology === "split" && options.store !== "postgres") throw new Error("--topology split needs --store postgres");
    if (options.instances > 1 && options.store !== "postgres") throw new Error("--instances needs --store postgres (the embedded database serves one process)");
    if (options.eventstore !== undefined && options.store !== "postgres") throw new Error("--eventstore needs --store postgres (the read models' database)");
    const environment = {
      DATABASE_URL: options.store === "postgres" ? target.url : "",
      EVENTSTORE_URL: options.eventstore ?? "",
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_MASTER_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      CARD_FINGERPRINT_KEY: randomBytes(32).toString("base64"),
      RATE_LIMIT_PER_MINUTE: "100000000",
      PROCESSOR_TIMEOUT_MS: String(PROCESSOR_TIMEOUT_MS),
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
      LOG_LEVEL: "warn",
      ...everyProcessorAt(simulator.url),
    };
    for (let instance = 0; instance < options.instances; instance += 1) {
      services.push(await startServiceChild(environment, { role: options.topology === "split" ? "api" : "all", cpuProfileDir: options["cpu-profile"] }));
    }
    if (options.topology === "split") projector = await startProjectorChild(environment);
    const service = services[0]!;
    const baseUrls = services.map((instance) => instance.url);
    const merchant = await setUpMerchant(service.url, receiver.url, options["payment-methods"]);
    const reference = await startReference(target.url, simulator.url, PROCESSOR_TIMEOUT_MS, merchant.hostConfiguration);
    try {
      const mix = merchantMix(merchant);
      const headers = { authorization: `Bearer ${merchant.key}` };
      const first = options.steps[0] ?? 1;
      // A warm-up, so that the first step does not pay for compiling and filling caches; it also seeds the follow-ups' transactions.
      await runOpenLoad({ baseUrls, headers, rate: first, seconds: Math.min(10, options["step-seconds"]), next: mix.next });
      /** Offers `rate` a second for `seconds`, and measures what the service did with it. */
      const measure = async (rate: number, seconds: number): Promise<Measured> => {
        await receiver.collect();
        const watching = watch(services);
        const pids = { services: services.map((instance) => instance.pid), projector: projector?.pid, eventStore: options["eventstore-pid"], simulator: simulator.pid, receiver: receiver.pid };
        const cpuOf = () => {
          const { user, system } = process.cpuUsage();
          return {
            service: pids.services.reduce((sum, pid) => sum + processCpuMs(pid), 0),
            projector: pids.projector === undefined ? 0 : processCpuMs(pids.projector),
            eventStore: pids.eventStore === undefined ? 0 : processCpuMs(pids.eventStore),
            simulator: processCpuMs(pids.simulator),
            receiver: processCpuMs(pids.receiver),
            bench: (user + system) / 1_000,
          };
        };
        const backendsBefore = await backendsCpuMs(target);
        const cpuBefore = cpuOf();
        const eluBefore = await Promise.all(services.map((instance) => instance.elu()));
        const run = await runOpenLoad({ baseUrls, headers, rate, seconds, next: mix.next });
        const eluAfter = await Promise.all(services.map((instance) => instance.elu()));
        const cpuAfter = cpuOf();
        const postgresMs = backendsSpentMs(backendsBefore, await backendsCpuMs(target));
        const watched = await watching.stop();
        const webhooks = await receiver.collect();
        const per = (key: keyof typeof cpuBefore) => (cpuAfter[key] - cpuBefore[key]) / Math.max(1, run.samples.length);
        const cpuParts = {
          service: per("service"),
          projector: per("projector"),
          postgres: postgresMs / Math.max(1, run.samples.length),
          eventStore: per("eventStore"),
          simulator: per("simulator"),
          receiver: per("receiver"),
          bench: per("bench"),
        };
        return {
          samples: run.samples,
          statusReadMs: watched.statusReadMs,
          offered: rate,
          seconds,
          ...answerCounts(run.samples, seconds),
          ...latencies(run.samples),
          projectionLagP99Seconds: p99OrInfinity(watched.lagsSeconds),
          statusReadsRefused: watched.refused,
          webhookLagP99Seconds: p99OrInfinity(webhooks.lagsMs) / 1_000,
          webhooksReceived: webhooks.received,
          webhookQueueAtEnd: watched.webhookQueue,
          eventLoopUtilization: Math.max(
            ...eluAfter.map((after, index) => {
              const before = eluBefore[index]!;
              return (after.active - before.active) / (after.active + after.idle - before.active - before.idle);
            }),
          ),
          cpuMsPerOperation: { total: Object.values(cpuParts).reduce((sum, part) => sum + part, 0), ...cpuParts },
          serviceRssMiB: watched.rssMiB,
          generatorLatenessMs: run.maxLatenessMs,
        };
      };

      const soakMinutes = options["soak-minutes"];
      if (soakMinutes !== undefined) {
        await soak({ minutes: soakMinutes, windowSeconds: options["window-seconds"], rate: first }, measure, () => readStatus(service));
        return;
      }

      const steps: Step[] = [];
      for (const rate of options.steps) {
        // Half the reference before the step and half after, each once the service is idle, so that
        // a burst of other work on the shared machine weighs on both alike more often than not.
        const runReference = async (idle: ServiceChild) => {
          await settle(idle, 30_000);
          const bare = await runOpenLoad({
            baseUrls: [reference.url],
            headers: {},
            rate,
            seconds: options["reference-seconds"] / 2,
            next: () => ({ kind: "bare", method: "POST", path: "/bare", body: { amount: randomInt(100, 10_000) } }),
          });
          return bare.samples;
        };
        const referenceBefore = await runReference(service);
        const { samples, statusReadMs, ...measured } = await measure(rate, options["step-seconds"]);
        const referenceLatency = latencies([...referenceBefore, ...(await runReference(service))]);
        const step: Step = { ...measured, referenceAddedP99Ms: referenceLatency.addedP99Ms, referenceEndToEndP99Ms: referenceLatency.endToEndP99Ms };
        steps.push(step);
        const misses = missed(step);
        console.log(
          `step ${rate}/s: achieved ${formatNumber(step.achieved, 1)}/s, added p99 ${formatNumber(step.addedP99Ms, 1)} ms (reference ${formatNumber(step.referenceAddedP99Ms, 1)} ms), ` +
            `projection lag p99 ${formatNumber(step.projectionLagP99Seconds, 2)} s, webhook lag p99 ${formatNumber(step.webhookLagP99Seconds, 2)} s ` +
            `(a status read took ${formatNumber(statusReadMs)} ms on average, ${step.statusReadsRefused} refused or timed out): ${misses.length === 0 ? "within bounds" : misses.join("; ")}`,
        );
        console.log(`  added p99 by kind: ${addedP99ByKind(samples)}`);
      }
      printSteps(steps);
      const standIns = [...mix.standIns()].map(([kind, count]) => `${kind} ${count}`).join(", ");
      console.log(`\nfollow-ups that found no transaction to follow and were sent as inline sales: ${standIns || "none"}`);
      const knee = kneeOf(steps);
      const after = steps.find((step) => step.offered > (knee?.offered ?? 0) && missed(step).length > 0);
      console.log(
        `\nknee (${where}): ${knee ? `${knee.offered} operations/s` : "none of the steps"} ` +
          `(bounds: no 5xx, added p99 ≤ ${KNEE.addedP99OfReference} × the bare grouped durable sale's, projection lag p99 ≤ ${KNEE.projectionLagP99Seconds} s, webhook lag p99 ≤ ${KNEE.webhookLagP99Seconds} s)`,
      );
      if (after) console.log(`first step past it: ${after.offered}/s, missing: ${missed(after).join("; ")}`);
      await writeFile(options.chart, capacityChart(steps, `bench:capacity on ${where}: knee ${knee ? `${knee.offered}/s` : "none"}`));
      console.log(`chart: ${options.chart}`);
      console.log(`\ncommand: npm run bench:capacity -- ${process.argv.slice(2).join(" ")}`);
    } finally {
      await reference.close();
    }
  } finally {
    for (const instance of services) await instance.stop();
    await projector?.stop();
    await receiver.stop();
    await simulator.stop();
    await target.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
