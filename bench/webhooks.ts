/**
 * What webhooks cost and how fast they go, on the real service (startService, in this process) on
 * a fresh `ledger_bench_<random>` PostgreSQL database, the processor simulator in a process of its
 * own, and a webhook receiver in a third process. Three parts, one run:
 *
 * 1. The cost to sales/s of one endpoint subscribed to everything (`events: ["*"]`, so every sale
 *    makes two messages: transaction.pending and transaction.approved). Runs alternate A B B A
 *    (A: the endpoint disabled; B: enabled), so a drift over the run (fuller tables, a busier
 *    machine) weighs on both alike. One client whose endpoint is switched with
 *    `PATCH /v1/webhook-endpoints/{id} {enabled}` rather than two clients, one with an endpoint:
 *    - The only difference between A and B is then the flag: the same client, API key, host
 *      configuration and rows; with two clients, A and B would also differ in whose rows they add to.
 *    - Two clients would not give a cleaner "no endpoint" A either: the webhooks projection skips
 *      reading payment streams only while the webhook_endpoints table is empty (any client, enabled
 *      or not), so once the other client's endpoint exists, A pays that read as well.
 *    - The endpoint is created (disabled) before the first A run, so all four runs see the same
 *      endpoints. Before that, one more run, A0, measures the service with no endpoint in the
 *      database at all (the projection's shortcut on): not alternated (it can only come first,
 *      on the emptiest tables), so its row is indicative only.
 *    - After a B run the bench waits until every message of it is delivered (webhook_queue_depth
 *      0, the webhooks projection caught up) before disabling the endpoint, and a B run's measured
 *      part starts once its warm-up's messages are delivered: no run is charged another's backlog.
 *    The service runs with WEBHOOK_ALLOW_HTTP=true and WEBHOOK_ALLOW_PRIVATE=true (passed to
 *    startBenchService's environment) so that an http://127.0.0.1 endpoint is accepted.
 *    During every measured run (A and B alike, so the load is the same) a sampler in this process
 *    makes one more sale every 50 ms and notes when its 201 arrived: under B, the time from that
 *    201 to the receiver getting the sale's transaction.approved is the delivery latency.
 *
 * 2. Deliveries per second when the dispatcher drains a backlog. A disabled endpoint builds no
 *    backlog (an endpoint gets only the events recorded while it is enabled; what it was owed before waits, undelivered, until it is enabled again),
 *    so the backlog is made as an outage would make it: the bench holds the dispatcher's lease
 *    (`job:webhook-dispatcher` in projection_checkpoints, as another instance that stopped would),
 *    waits out the few seconds the dispatcher trusts its own lease, then a second client with an
 *    enabled `["*"]` endpoint makes `--backlog`/2 sales; once the webhooks projection has written
 *    them all to the outbox, the bench releases the lease and times how long until the receiver
 *    has them all and no delivery is pending: deliveries/s over the whole backlog and
 *    over each half of it (a rate that depends on how much is pending shows as two different
 *    halves). Under B the bench also reports how many of the messages made during a measured run
 *    reached the receiver during it: under 100 %, a backlog grew, and part of B's delivery work
 *    fell after its measured run (a note says so at the end).
 *
 * 3. Correctness: every approved sale made while an endpoint was enabled (A/B client: the B
 *    windows, from the read model's created_at; backlog client: all) has its transaction.approved
 *    at the receiver, none arrived for sales made while disabled, each transaction.pending came
 *    before its transaction.approved, duplicates (webhook-ids received more than once: at least
 *    once allows them) are counted, and a sample of signatures verifies with the Standard Webhooks
 *    library (`standardwebhooks`).
 *
 * The receiver is a node:http server on 127.0.0.1 in a child process rather than a worker thread:
 * a real receiver is another host, and a process of its own shares neither the service's event
 * loop nor its heap and garbage collector (a worker thread would share the process's). It answers
 * 200 with no body as soon as a request's body has arrived, then counts it (per path: the two
 * endpoints have their own) and verifies the first 100 signatures of each endpoint and one in 50
 * after that, off the request's path. Autocannon runs in a worker thread, as in the other benches.
 *
 * Usage: npx tsx bench/webhooks.ts [--database-url URL] [--seconds 10] [--connections 64]
 *                                  [--backlog 20000]
 * (--database-url: the server to create the bench database on; default DATABASE_URL, else the
 * other benches' default, serverArgs in bench/support.ts. --backlog: messages in part 2, 2 a sale.)
 */
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { sql } from "kysely";
import {
  type BenchService,
  createPayingClient,
  type Load,
  measure,
  type Measured,
  ms,
  type PayingClient,
  POOL_SIZE,
  rowsOf,
  type RunShape,
  saleBodies,
  settledApprovedSales,
  startBenchService,
} from "./http-load.ts";
import {
  type BenchTarget,
  formatNumber,
  intOption,
  openTarget,
  percentile,
  printResults,
  type ResultRow,
  serverArgs,
} from "./support.ts";
import type { EventStore } from "../src/eventstore/port.ts";
import { PostgresEventStore } from "../src/eventstore/postgres/event-store.ts";
import { measureLag } from "../src/projections/lag.ts";
import { measureWebhookQueue } from "../src/projections/webhooks/queue.ts";
import { webhooksProjection } from "../src/projections/webhooks/webhooks-projection.ts";
import { type ApprovedArrivals, clock, type Receiver, startReceiver } from "./webhook-receiver-client.ts";

/** Issue 34: one endpoint subscribed to everything costs at most this share of sales/s. */
const GOAL_MAX_COST = 0.15;
const AB_PATH = "/hooks/alternating";
const BACKLOG_PATH = "/hooks/backlog";
const SAMPLE_EVERY_MS = 50;
/** The dispatcher's lease (src/jobs/webhook-dispatcher.ts) and how long it trusts it unchecked (a third of 10 s). */
const DISPATCHER_LEASE = "job:webhook-dispatcher";
const LEASE_HOLDER = "bench:webhooks";
const DISPATCHER_TRUSTS_ITS_LEASE_MS = 4_000;
const DRAIN_TIMEOUT_MS = 15 * 60_000;
// ---------------------------------------------------------------------------------------------
// The bench

/** A client-key call that must answer 2xx; its JSON body, trusted to be an `Answer`. */
async function clientCall<Answer>(baseUrl: string, key: string, method: "POST" | "PATCH", path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Answer;
}

interface Endpoint {
  id: string;
  secret: string;
}

/** A `["*"]` endpoint of the client to the receiver's `path`, created through the API; the receiver learns its secret. */
async function createEndpoint(service: BenchService, receiver: Receiver, client: PayingClient, path: string, enabled: boolean) {
  const endpoint = await clientCall<Endpoint>(service.url, client.key, "POST", "/v1/webhook-endpoints", {
    url: `${receiver.url}${path}`,
    events: ["*"],
    description: "webhooks bench receiver",
    enabled,
  });
  receiver.setSecret(path, endpoint.secret);
  return endpoint;
}

interface Outbox {
  /** Deliveries still owed to enabled endpoints (what /metrics calls webhook_queue_depth). */
  queueDepth: number;
  /** How far the webhooks projection trails the log: 0 once every event is in the outbox. */
  projectionLag: bigint;
}

/**
 * The outbox as the database holds it now. Not from /metrics: the service refreshes those gauges
 * every 15 s, so a run's deliveries could read as done while thousands were pending (and then
 * stay owed to the endpoint the bench disables next, counted missing).
 */
async function outboxOf(target: BenchTarget, store: EventStore): Promise<Outbox> {
  const db = target.connection.db;
  const [queue, lag] = await Promise.all([measureWebhookQueue(db), measureLag(db, store, webhooksProjection)]);
  return { queueDepth: queue.pending, projectionLag: lag.positionsBehind };
}

/** Until every event is in the outbox and every delivery is done: webhooks projection caught up, queue depth 0. */
async function waitDelivered(target: BenchTarget, store: EventStore, label: string): Promise<void> {
  const started = Date.now();
  let reported = started;
  for (;;) {
    const { queueDepth, projectionLag } = await outboxOf(target, store);
    if (queueDepth === 0 && projectionLag === 0n) return;
    if (Date.now() - started > DRAIN_TIMEOUT_MS) {
      throw new Error(`${label}: still ${queueDepth} deliveries pending after ${DRAIN_TIMEOUT_MS / 60_000} minutes`);
    }
    if (Date.now() - reported >= 5_000) {
      reported = Date.now();
      console.log(`${label}: ${queueDepth} deliveries pending, webhooks projection ${projectionLag} positions behind...`);
    }
    await sleep(200);
  }
}

/** Until the webhooks projection has written every event recorded so far to the outbox. */
async function waitProjected(target: BenchTarget, store: EventStore): Promise<number> {
  for (;;) {
    const { queueDepth, projectionLag } = await outboxOf(target, store);
    if (projectionLag === 0n) return queueDepth;
    await sleep(200);
  }
}

interface Sample {
  transactionId: string;
  /** When the sale's 201 arrived (ms since the epoch, fractional). */
  answeredAt: number;
}

/** One sale every SAMPLE_EVERY_MS (or as soon as the previous answers), its 201 time noted, until stopped. */
function startSampler(baseUrl: string, key: string, bodies: string[]): { stop(): Promise<Sample[]> } {
  const samples: Sample[] = [];
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i += 1) {
      const started = performance.now();
      try {
        const response = await fetch(`${baseUrl}/v1/transactions/sale`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: bodies[i % bodies.length],
        });
        const answeredAt = clock();
        const sale = (await response.json()) as { id?: unknown; status?: unknown };
        if (response.status === 201 && sale.status === "approved" && typeof sale.id === "string") {
          samples.push({ transactionId: sale.id, answeredAt });
        }
      } catch {
        // A lost sample is only a lost sample.
      }
      await sleep(Math.max(0, SAMPLE_EVERY_MS - (performance.now() - started)));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return samples;
    },
  };
}

type Kind = "A0" | "A" | "B";

interface Run {
  name: string;
  kind: Kind;
  measured: Measured;
  samples: Sample[];
  /** Requests the receiver got on the A/B endpoint's path from the measured run's start to its end. */
  received: number;
  /** webhook_queue_depth as the measured run ended. */
  queueDepthAtEnd: number;
  /** While the endpoint was enabled (B), bounds of the sales' created_at. */
  window: { from: Date; to: Date } | undefined;
}

/** Messages the receiver got during a measured run over those its sales made (autocannon's and the sampler's, 2 each). */
const keptUp = (run: Run) => run.received / (2 * (run.measured.result["2xx"] + run.samples.length));

const salesPerSecond = (runs: readonly Run[]) =>
  runs.reduce((sum, run) => sum + run.measured.result["2xx"], 0) / runs.reduce((sum, run) => sum + run.measured.result.duration, 0);

function latencyRow(target: string, metric: string, values: number[], expected: number): ResultRow {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    target,
    metric: `${metric} p50 / p99 / max (n = ${sorted.length} of ${expected})`,
    value: sorted.length === 0 ? "none" : `${ms(percentile(sorted, 0.5))} / ${ms(percentile(sorted, 0.99))} / ${ms(sorted.at(-1) ?? Number.NaN)}`,
    goal: "-",
    met: "-",
  };
}

async function approvedSaleIds(target: BenchTarget, clientId: string, windows?: { from: Date; to: Date }[]): Promise<string[]> {
  let query = target.connection.db
    .selectFrom("transactions")
    .select("transaction_id")
    .where("client_id", "=", clientId)
    .where("type", "=", "sale")
    .where("status", "=", "approved");
  if (windows) {
    query = query.where((eb) => eb.or(windows.map(({ from, to }) => eb.and([eb("created_at", ">=", from), eb("created_at", "<=", to)]))));
  }
  return (await query.execute()).map((row) => row.transaction_id);
}

/** The correctness rows of one endpoint: expected approved sales against what the receiver got. */
async function correctnessRows(
  receiver: Receiver,
  target: string,
  path: string,
  expectedIds: readonly string[],
): Promise<{ rows: ResultRow[]; arrivals: ApprovedArrivals }> {
  const [stats, arrivals] = await Promise.all([receiver.stats(path), receiver.approved(path)]);
  const expected = new Set(expectedIds);
  const missing = expectedIds.filter((id) => !(id in arrivals)).length;
  const unexpected = Object.keys(arrivals).filter((id) => !expected.has(id)).length;
  const rows: ResultRow[] = [
    {
      target,
      metric: "approved sales (endpoint enabled) with transaction.approved received: received / expected, missing",
      value: `${expectedIds.length - missing} / ${expectedIds.length}, ${missing} missing`,
      goal: "all, 0 missing",
      met: missing === 0 && expectedIds.length > 0 ? "yes" : "no",
    },
    {
      target,
      metric: "transaction.approved received for sales made while disabled (or of no sale)",
      value: String(unexpected),
      goal: "0",
      met: unexpected === 0 ? "yes" : "no",
    },
    {
      target,
      metric: "requests / distinct webhook-ids / duplicates",
      value: `${stats.requests} / ${stats.distinctIds} / ${stats.duplicates}`,
      goal: "- (at least once: counted)",
      met: "-",
    },
    {
      target,
      metric: "transaction.approved before its transaction.pending / without one",
      value: `${stats.approvedBeforePending} / ${stats.approvedWithoutPending}`,
      goal: "0 / 0",
      met: stats.approvedBeforePending === 0 && stats.approvedWithoutPending === 0 ? "yes" : "no",
    },
    {
      target,
      metric: "signatures valid (standardwebhooks) / checked; malformed bodies",
      value: `${stats.signaturesValid} / ${stats.signaturesChecked}; ${stats.malformed}${stats.signatureError ? ` (${stats.signatureError})` : ""}`,
      goal: "all valid, 0 malformed",
      met: stats.signaturesChecked > 0 && stats.signaturesValid === stats.signaturesChecked && stats.malformed === 0 ? "yes" : "no",
    },
  ];
  return { rows, arrivals };
}

async function holdDispatcherLease(target: BenchTarget): Promise<void> {
  await sql`
    insert into projection_checkpoints (projection, owner, lease_expires_at)
    values (${DISPATCHER_LEASE}, ${LEASE_HOLDER}, now() + interval '1 hour')
    on conflict (projection) do update
      set owner = excluded.owner, lease_expires_at = excluded.lease_expires_at, updated_at = now()
  `.execute(target.connection.db);
}

async function releaseDispatcherLease(target: BenchTarget): Promise<void> {
  await sql`
    update projection_checkpoints set owner = null, lease_expires_at = null, updated_at = now()
    where projection = ${DISPATCHER_LEASE} and owner = ${LEASE_HOLDER}
  `.execute(target.connection.db);
}

async function main(): Promise<void> {
  const { values, serverUrl } = serverArgs(["seconds", "connections", "backlog"]);
  const shape: RunShape = {
    seconds: intOption(values.seconds, 10, "seconds"),
    connections: intOption(values.connections, 64, "connections"),
  };
  const backlogMessages = intOption(values.backlog, 20_000, "backlog");
  const startedAt = Date.now();

  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  // The bench's own reader of the log, for the webhooks projection's lag.
  const store = new PostgresEventStore(target.connection.db);
  try {
    const receiver = await startReceiver();
    console.log(`webhook receiver: in its own process at ${receiver.url}`);
    try {
      const service = await startBenchService(target, { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" });
      try {
        const results: ResultRow[] = [];
        const bodies = saleBodies();

        // Part 1: A0 with no endpoint anywhere, then A B B A on one client whose endpoint is switched.
        const client = await createPayingClient(service.url, "Webhooks, alternating");
        const load: Load = {
          url: `${service.url}/v1/transactions/sale`,
          headers: { authorization: `Bearer ${client.key}` },
          bodies,
        };
        let endpoint: Endpoint | undefined;
        const setEnabled = (enabled: boolean) =>
          clientCall(service.url, client.key, "PATCH", `/v1/webhook-endpoints/${endpoint!.id}`, { enabled });

        const runs: Run[] = [];
        const kinds: Kind[] = ["A0", "A", "B", "B", "A"];
        for (const [index, kind] of kinds.entries()) {
          if (kind !== "A0" && !endpoint) endpoint = await createEndpoint(service, receiver, client, AB_PATH, false);
          const name =
            kind === "A0"
              ? "A0: no endpoint in the database"
              : `${kind}: endpoint ${kind === "B" ? "enabled" : "disabled"}, run ${index}`;
          let from: Date | undefined;
          if (kind === "B") {
            await setEnabled(true);
            from = new Date();
          }
          let sampler: ReturnType<typeof startSampler> | undefined;
          let receivedBefore = 0;
          const measured = await measure(name, load, shape, async () => {
            await settledApprovedSales(target);
            if (kind === "B") await waitDelivered(target, store, `${name}, warm-up's deliveries`);
            receivedBefore = (await receiver.stats(AB_PATH)).requests;
            sampler = startSampler(service.url, client.key, bodies);
          });
          const samples = (await sampler?.stop()) ?? [];
          const received = (await receiver.stats(AB_PATH)).requests - receivedBefore;
          const { queueDepth } = await outboxOf(target, store);
          await settledApprovedSales(target);
          let window: Run["window"];
          if (kind === "B") {
            await waitDelivered(target, store, `${name}, deliveries`);
            window = { from: from!, to: new Date() };
            await setEnabled(false);
          }
          runs.push({ name, kind, measured, samples, received, queueDepthAtEnd: queueDepth, window });
        }

        for (const run of runs) {
          results.push(...rowsOf(run.name, "sales", run.measured));
          if (run.kind === "B") {
            results.push(
              {
                target: run.name,
                metric: "messages received/s during the run, and of those made (2 a sale)",
                value: `${formatNumber(run.received / run.measured.result.duration)}, ${formatNumber(keptUp(run) * 100)} %`,
                goal: "- (under 100 %: a backlog grew)",
                met: "-",
              },
              { target: run.name, metric: "deliveries pending as the run ended", value: String(run.queueDepthAtEnd), goal: "-", met: "-" },
            );
          }
        }
        const pristine = runs.filter((run) => run.kind === "A0");
        const disabled = runs.filter((run) => run.kind === "A");
        const enabled = runs.filter((run) => run.kind === "B");
        const cost = 1 - salesPerSecond(enabled) / salesPerSecond(disabled);
        const costVsPristine = 1 - salesPerSecond(enabled) / salesPerSecond(pristine);
        results.push(
          { target: "A: disabled, all runs", metric: `sales/s (${disabled.length} × ${shape.seconds} s)`, value: formatNumber(salesPerSecond(disabled)), goal: "-", met: "-" },
          { target: "B: enabled, all runs", metric: `sales/s (${enabled.length} × ${shape.seconds} s)`, value: formatNumber(salesPerSecond(enabled)), goal: "-", met: "-" },
          {
            target: "B vs A (alternated)",
            metric: "throughput cost of one [\"*\"] endpoint",
            value: `${formatNumber(cost * 100, 1)} %`,
            goal: `<= ${GOAL_MAX_COST * 100} %`,
            met: cost <= GOAL_MAX_COST ? "yes" : "no",
          },
          {
            target: "B vs A0 (A0 first, not alternated)",
            metric: "throughput cost vs no endpoint in the database (indicative)",
            value: `${formatNumber(costVsPristine * 100, 1)} %`,
            goal: `<= ${GOAL_MAX_COST * 100} % (indicative)`,
            met: costVsPristine <= GOAL_MAX_COST ? "yes" : "no",
          },
        );

        const windows = enabled.map((run) => run.window!);
        const alternating = await correctnessRows(receiver, "A/B endpoint", AB_PATH, await approvedSaleIds(target, client.clientId, windows));
        const samples = enabled.flatMap((run) => run.samples);
        const sampled = samples.flatMap(({ transactionId, answeredAt }) => {
          const arrival = alternating.arrivals[transactionId];
          return arrival ? [arrival[0] - answeredAt] : [];
        });
        const recorded = Object.values(alternating.arrivals)
          .filter(([, createdAt]) => windows.some(({ from, to }) => createdAt >= from.getTime() && createdAt <= to.getTime()))
          .map(([arrivedAt, createdAt]) => arrivedAt - createdAt);
        results.push(
          latencyRow("delivery under B load (sampled)", "sale's 201 → transaction.approved at the receiver", sampled, samples.length),
          latencyRow("delivery under B load (all)", "approved event's createdAt → received (ms clock)", recorded, recorded.length),
        );

        // Part 2: a backlog made while the dispatcher's lease is held elsewhere, then drained.
        const backlogClient = await createPayingClient(service.url, "Webhooks, backlog");
        await createEndpoint(service, receiver, backlogClient, BACKLOG_PATH, true);
        await holdDispatcherLease(target);
        let drained: { messages: number; seconds: number; backlog: number; pendingSeconds: number; halves: [number, number] };
        try {
          console.log(`backlog: dispatcher's lease held; waiting ${DISPATCHER_TRUSTS_ITS_LEASE_MS / 1000} s for it to stop...`);
          await sleep(DISPATCHER_TRUSTS_ITS_LEASE_MS);
          const sales = Math.ceil(backlogMessages / 2);
          console.log(`backlog: ${sales} sales (${shape.connections} connections) for an enabled ["*"] endpoint...`);
          const burst = await autocannon({
            url: `${service.url}/v1/transactions/sale`,
            connections: shape.connections,
            amount: sales,
            workers: 1,
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${backlogClient.key}` },
            requests: bodies.map((body) => ({ method: "POST", body })),
          });
          if (burst.non2xx > 0 || burst.errors > 0) {
            throw new Error(`backlog sales: ${burst.non2xx} non-2xx answers, ${burst.errors} errors`);
          }
          await settledApprovedSales(target, backlogClient.clientId);
          const backlog = await waitProjected(target, store);
          const receivedBefore = (await receiver.stats(BACKLOG_PATH)).requests;
          console.log(`backlog: ${backlog} deliveries pending (${receivedBefore} received while the lease was held); releasing it...`);
          const releasedAt = clock();
          await releaseDispatcherLease(target);
          await waitDelivered(target, store, "backlog drain");
          const pendingSeconds = (clock() - releasedAt) / 1000;
          const after = await receiver.stats(BACKLOG_PATH);
          const messages = after.requests - receivedBefore;
          const half = Math.floor(messages / 2);
          const [halfwayAt] = await receiver.arrivals(BACKLOG_PATH, [receivedBefore + half]);
          const halfway = ((halfwayAt ?? after.lastArrival) - releasedAt) / 1000;
          drained = {
            messages,
            seconds: (after.lastArrival - releasedAt) / 1000,
            backlog,
            pendingSeconds,
            halves: [half / halfway, (messages - half) / ((after.lastArrival - releasedAt) / 1000 - halfway)],
          };
        } finally {
          await releaseDispatcherLease(target);
        }
        const drainRate = drained.messages / drained.seconds;
        const bMessageRate = enabled.reduce((sum, run) => sum + run.received, 0) / enabled.reduce((sum, run) => sum + run.measured.result.duration, 0);
        results.push(
          {
            target: "backlog drain (one endpoint)",
            metric: "backlog at release / requests received after it",
            value: `${drained.backlog} / ${drained.messages}`,
            goal: "equal (no duplicates)",
            met: drained.backlog === drained.messages ? "yes" : "no",
          },
          {
            target: "backlog drain (one endpoint)",
            metric: "time to the last one at the receiver / to no delivery pending (polled)",
            value: `${formatNumber(drained.seconds, 2)} s / ${formatNumber(drained.pendingSeconds, 2)} s`,
            goal: "-",
            met: "-",
          },
          {
            target: "backlog drain (one endpoint)",
            metric: "deliveries/s (and vs messages/s made under B load)",
            value: `${formatNumber(drainRate)} (${formatNumber(drainRate / bMessageRate, 2)} ×)`,
            goal: "-",
            met: "-",
          },
          {
            target: "backlog drain (one endpoint)",
            metric: "deliveries/s, first half of the backlog / second half",
            value: `${formatNumber(drained.halves[0])} / ${formatNumber(drained.halves[1])}`,
            goal: "-",
            met: "-",
          },
        );

        // Part 3: correctness.
        results.push(...alternating.rows);
        const backlogRows = await correctnessRows(receiver, "backlog endpoint", BACKLOG_PATH, await approvedSaleIds(target, backlogClient.clientId));
        results.push(...backlogRows.rows);

        printResults(results);
        const failed = results.filter((row) => row.met === "no").length;
        const behind = enabled.filter((run) => keptUp(run) < 0.95);
        if (behind.length > 0) {
          console.log(
            `\nnote: the dispatcher fell behind in ${behind.length} of ${enabled.length} B runs (deliveries pending ` +
              `${behind.map((run) => run.queueDepthAtEnd).join(", ")} as they ended): part of B's delivery work came after ` +
              "its measured run, so the cost row understates what a sustained load would cost.",
          );
        }
        console.log(
          `\nwebhooks bench finished in ${formatNumber((Date.now() - startedAt) / 1000)} s: ` +
            (failed === 0 ? "every goal met." : `${failed} row(s) not met (see "met").`),
        );
      } finally {
        await service.stop();
      }
    } finally {
      await receiver.stop();
    }
  } finally {
    await store.close();
    await target.close();
  }
}

await main();
