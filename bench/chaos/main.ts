import { randomBytes, randomInt } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { openDatabase } from "../../src/db/connection.ts";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { createEventStoreDbEventStore } from "../../src/eventstore/eventstoredb/event-store.ts";
import { openEventStore } from "../../src/eventstore/open.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { openLedger } from "../../src/processors/simulator/ledger.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import { type EventStoreNode, eventStoreNode, requireEmpty } from "./eventstore-node.ts";
import { startFaultProxy } from "./fault-proxy.ts";
import { type FaultTargets, type InjectedFault, describeFault, planFaults, runFaults } from "./faults.ts";
import { type Evidence, checkInvariants, readLedger, readOpenReservations } from "./invariants.ts";
import { journalSummary, readJournal } from "./journal-checks.ts";
import { settlementTimesBetween } from "./schedule.ts";
import { ledgerVerify, readLimitUsage, waitUntilNothingPending } from "./ledger-checks.ts";
import { Disturbances, startMonitor } from "./monitors.ts";
import { startThrowawayPostgres } from "./postgres-server.ts";
import { ManagedProcess, ServiceInstance, freePort } from "./processes.ts";
import { createRandom } from "./random.ts";
import { type RunResult, printReport } from "./report.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.ts";
import { type Answer, type WorkloadClient, runWorkload, setUpClients } from "./workload.ts";

const options = z
  .object({
    seed: z.coerce.number().int().nonnegative().default(() => randomInt(1, 1_000_000)),
    seconds: z.coerce.number().positive().optional(),
    minutes: z.coerce.number().positive().optional(),
    embedded: z.boolean().default(false),
    users: z.coerce.number().int().positive().default(8),
    clients: z.coerce.number().int().positive().default(3),
    /** Default: 512 MB for a service on PostgreSQL, 1536 MB for one that embeds PGlite (WebAssembly PostgreSQL in the process). */
    "max-rss-mb": z.coerce.number().int().positive().optional(),
    "health-bound-ms": z.coerce.number().int().positive().default(2_000),
    keep: z.boolean().default(false),
    /** The events go to this EventStoreDB (an empty database); the read models stay in the run's PostgreSQL. */
    eventstore: z.string().regex(/^(esdb|kurrentdb)(\+discover)?:\/\//, "must be an esdb:// connection string").optional(),
    /** The operator's shell commands that `kill -9` the EventStoreDB node and start it again. */
    "eventstore-kill-command": z.string().min(1).optional(),
    "eventstore-restart-command": z.string().min(1).optional(),
  })
  .strict()
  .refine((given) => given.seconds === undefined || given.minutes === undefined, "give --seconds or --minutes, not both")
  .refine((given) => !(given.embedded && given.eventstore), "--eventstore runs on PostgreSQL, not with --embedded")
  .refine(
    (given) => (given["eventstore-kill-command"] === undefined) === (given["eventstore-restart-command"] === undefined),
    "give both --eventstore-kill-command and --eventstore-restart-command, or neither",
  )
  .refine((given) => given.eventstore || given["eventstore-kill-command"] === undefined, "the EventStoreDB hooks need --eventstore")
  .parse(
    parseArgs({
      options: {
        seed: { type: "string" },
        seconds: { type: "string" },
        minutes: { type: "string" },
        embedded: { type: "boolean" },
        users: { type: "string" },
        clients: { type: "string" },
        "max-rss-mb": { type: "string" },
        "health-bound-ms": { type: "string" },
        keep: { type: "boolean" },
        eventstore: { type: "string" },
        "eventstore-kill-command": { type: "string" },
        "eventstore-restart-command": { type: "string" },
      },
    }).values,
  );
const durationMs = options.minutes ? options.minutes * 60_000 : (options.seconds ?? 60) * 1_000;

/** The service's settings for a chaos run: short timeouts and windows, so a run settles in seconds. */
const timing = {
  PROCESSOR_TIMEOUT_MS: "2000",
  CONNECTION_TIMEOUT_MS: "32000",
  PROCESSOR_OWN_TIMEOUT_SECONDS: "3",
  PENDING_RESOLVER_INTERVAL_MS: "1000",
  PENDING_REVERSAL_AFTER_SECONDS: "30",
  IDEMPOTENCY_IN_PROGRESS_TIMEOUT_MS: "10000",
  LIMIT_SWEEP_INTERVAL_MS: "2000",
  LIMIT_SWEEP_GRACE_MS: "20000",
  LIFECYCLE_CHECK_INTERVAL_MS: "2000",
  // Authorizations left uncaptured expire (their rest voided) while the load and the faults go on.
  AUTHORIZATION_TTL_SECONDS: "30",
  SETTLEMENT_RESUME_AFTER_MS: "5000",
  DATABASE_CONNECT_TIMEOUT_MS: "2000",
  DATABASE_STATEMENT_TIMEOUT_MS: "5000",
  DATABASE_LOCK_TIMEOUT_MS: "2000",
  RATE_LIMIT_PER_MINUTE: "1000000",
  WEBHOOK_ALLOW_HTTP: "true",
  WEBHOOK_ALLOW_PRIVATE: "true",
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_DISPATCH_INTERVAL_MS: "100",
  WEBHOOK_TIMEOUT_MS: "2000",
  LOG_LEVEL: "info",
};
const processorTimeoutMs = Number(timing.PROCESSOR_TIMEOUT_MS);
const sweepSettleMs = Number(timing.LIMIT_SWEEP_GRACE_MS) + 2 * Number(timing.LIMIT_SWEEP_INTERVAL_MS);
/** The resolver's window: what it takes to settle every pending transaction, reversals included. */
const resolverWindowMs = (Number(timing.PENDING_REVERSAL_AFTER_SECONDS) + 60) * 1_000;
const authorizationTtlMs = Number(timing.AUTHORIZATION_TTL_SECONDS) * 1_000;
/**
 * Once nothing is pending: every authorization approved by then is past its TTL, and every
 * failure on "not found" past its watch (a late approval recorded and reversed), a few passes on.
 */
const lifecycleWindowMs =
  Math.max(authorizationTtlMs, Number(timing.PENDING_REVERSAL_AFTER_SECONDS) * 1_000) +
  3 * Math.max(Number(timing.LIFECYCLE_CHECK_INTERVAL_MS), Number(timing.PENDING_RESOLVER_INTERVAL_MS));
/** A batch's settlement time is this long past before the evidence is read (the invariant's grace). */
const scheduledCloseWaitMs = 25_000;

const log = (line: string) => process.stdout.write(`${line}\n`);

const secrets = {
  ADMIN_API_KEY: randomBytes(24).toString("hex"),
  SECRETS_MASTER_KEYS: `chaos:${randomBytes(32).toString("base64")}`,
  CARD_FINGERPRINT_KEY: randomBytes(32).toString("base64"),
};

/** What the run itself knows, not read from the ledger or the processor. */
type RunFacts = Pick<Evidence, "scheduledCloses" | "authorizationTtlMs" | "judgedAt" | "paymentMethods">;

interface Harness {
  instances: ServiceInstance[];
  targets: FaultTargets;
  /** Gathers the ledger's and the processor's side once the load stopped and the resolvers settled. */
  evidence(
    clients: readonly WorkloadClient[],
    answers: Answer[],
    webhooks: WebhookReceiver,
  ): Promise<{ evidence: Omit<Evidence, keyof RunFacts>; verify: { ok: boolean; output: string } }>;
  close(): Promise<void>;
}

/** Where the events live when not in the run's PostgreSQL: the EventStoreDB given, and how to kill and restart its node. */
interface EventStoreSetting {
  url: string;
  node?: EventStoreNode;
}

async function distributedHarness(directory: string, eventStore: EventStoreSetting | undefined): Promise<Harness> {
  const postgres = await startThrowawayPostgres();
  const databaseProxy = await startFaultProxy({ target: { host: "127.0.0.1", port: postgres.port } });
  const simulator = new ManagedProcess("simulator", {
    entry: "src/processors/simulator/main.ts",
    env: { SIMULATOR_PORT: String(await freePort()), SIMULATOR_DATA_DIR: join(directory, "simulator") },
    logFile: join(directory, "simulator.log"),
  });
  const simulatorUrl = z.object({ simulator: z.string() }).parse(JSON.parse(await simulator.start())).simulator;
  const processorProxy = await startFaultProxy({ target: { host: "127.0.0.1", port: Number(new URL(simulatorUrl).port) } });
  const processorUrl = `http://${processorProxy.host}:${processorProxy.port}`;
  const databaseUrl = `postgres://postgres@${databaseProxy.host}:${databaseProxy.port}/postgres`;
  const instances = await Promise.all(
    ["instance-0", "instance-1"].map(async (name) => {
      await mkdir(join(directory, name));
      return new ServiceInstance(name, {
        port: await freePort(),
        logFile: join(directory, `${name}.log`),
        env: {
          ...timing,
          ...secrets,
          DATABASE_URL: databaseUrl,
          DATA_DIR: join(directory, name),
          PROCESSOR_A_URL: processorUrl,
          PROCESSOR_B_URL: processorUrl,
          PROCESSOR_C_URL: processorUrl,
          PROCESSOR_D_URL: processorUrl,
          ...(eventStore ? { EVENTSTORE_URL: eventStore.url } : {}),
        },
      });
    }),
  );
  // One at a time: the first runs the migrations.
  for (const instance of instances) await instance.start();
  return {
    instances,
    targets: { instances, postgres, databaseProxy, processorProxy, eventStore: eventStore?.node, processorTimeoutMs },
    async evidence(clients, answers, webhooks) {
      const [first] = instances as [ServiceInstance];
      const { today, usage } = await readLimitUsage(first.url, secrets.ADMIN_API_KEY, clients);
      const processorTransactions = z
        .object({ data: z.array(z.custom<SimulatedTransaction>()) })
        .parse(await (await fetch(`${simulatorUrl}/simulator/transactions`)).json()).data;
      const connection = await openDatabase({ databaseUrl: postgres.url, dataDir: "memory://" });
      const store = openEventStore(eventStore?.url, connection.db);
      try {
        const ledger = await readLedger(connection.db);
        const journal = await readJournal(connection.db, store);
        const openReservations = await readOpenReservations(store, clientIds(clients), today);
        const verify = await ledgerVerify({
          DATABASE_URL: postgres.url,
          DATA_DIR: join(directory, "verify"),
          ...(eventStore ? { EVENTSTORE_URL: eventStore.url } : {}),
          ...secrets,
        });
        return {
          evidence: { ...ledger, journal, processorTransactions, answers, limitUsage: usage, openReservations, today, webhooks: webhooks.received },
          verify,
        };
      } finally {
        await store.close();
        await connection.close();
      }
    },
    async close() {
      log("stopping: instances");
      await Promise.all(instances.map((instance) => instance.process.close()));
      log("stopping: simulator");
      await simulator.close();
      log("stopping: fault proxies");
      await Promise.all([databaseProxy.close(), processorProxy.close()]);
      log("stopping: PostgreSQL");
      await postgres.destroy();
    },
  };
}

/** One instance on its embedded PGlite with the built-in simulator: the default a first user runs. */
async function embeddedHarness(directory: string): Promise<Harness> {
  const dataDir = join(directory, "data");
  const instance = new ServiceInstance("instance-0", {
    port: await freePort(),
    logFile: join(directory, "instance-0.log"),
    env: { ...timing, ...secrets, DATA_DIR: dataDir },
  });
  await instance.start();
  return {
    instances: [instance],
    targets: { instances: [instance], processorTimeoutMs },
    async evidence(clients, answers, webhooks) {
      const { today, usage } = await readLimitUsage(instance.url, secrets.ADMIN_API_KEY, clients);
      // The embedded database opens in one process at a time: the service stops first.
      await instance.process.terminate();
      const verify = await ledgerVerify({ DATA_DIR: dataDir, ...secrets });
      const simulatorLedger = await openLedger(join(dataDir, "simulator"));
      const processorTransactions = simulatorLedger.transactions({});
      await simulatorLedger.close();
      const connection = await openDatabase({ databaseUrl: undefined, dataDir });
      try {
        const store = openEventStore(undefined, connection.db);
        const ledger = await readLedger(connection.db);
        const journal = await readJournal(connection.db, store);
        const openReservations = await readOpenReservations(store, clientIds(clients), today);
        return {
          evidence: { ...ledger, journal, processorTransactions, answers, limitUsage: usage, openReservations, today, webhooks: webhooks.received },
          verify,
        };
      } finally {
        await connection.close();
      }
    },
    close: () => instance.process.close(),
  };
}

const clientIds = (clients: readonly WorkloadClient[]) => clients.map((client) => client.clientId);

/** The events' store counts as the database: an instance is not ready without it. */
const componentOf = (fault: InjectedFault["fault"]): string => {
  if (fault.kind === "kill -9" || fault.kind === "SIGTERM") return `instance-${fault.instance}`;
  return fault.kind.startsWith("database") || fault.kind.startsWith("eventstore") ? "database" : "processor";
};

/** Runs the load and the faults, checks the invariants and prints the report; whether it failed. */
async function run(): Promise<boolean> {
  const mode = options.embedded ? "embedded" : options.eventstore ? "eventstoredb" : "distributed";
  const directory = await mkdtemp(join(tmpdir(), `ledger-chaos-${options.seed}-`));
  const random = createRandom(options.seed);
  log(`chaos: ${mode} run, seed ${options.seed}, ${durationMs / 1000} s of load, logs in ${directory}`);
  log(`replay: npm run chaos -- --seed ${options.seed} --seconds ${durationMs / 1000}${options.embedded ? " --embedded" : ""}${eventStoreArguments()}`);

  const eventStore = await openEventStoreSetting();
  const harness = await (options.embedded ? embeddedHarness(directory) : distributedHarness(directory, eventStore?.setting));
  const webhooks = await startWebhookReceiver(random.fork("webhooks"));
  try {
    const baseUrls = harness.instances.map((instance) => instance.url);
    // Each host configuration's batch closes on schedule at a minute that comes round under load.
    const settlementTimes = settlementTimesBetween(new Date(Date.now() + 15_000), new Date(Date.now() + durationMs));
    const clients = await setUpClients({
      baseUrl: baseUrls[0]!,
      adminKey: secrets.ADMIN_API_KEY,
      count: options.clients,
      random: random.fork("clients"),
      settlementTimes,
    });
    const scheduledCloses = clients.flatMap((client) =>
      processors.flatMap((processor) => {
        const close = client.scheduledCloses[processor];
        return close ? [{ hostConfigurationId: client.hostConfigurationIds[processor], at: close.at }] : [];
      }),
    );
    log(`settlement times (UTC): ${settlementTimes.map((time) => time.settlementTime).join(", ")}; authorizations expire after ${authorizationTtlMs / 1000} s`);
    for (const client of clients) await subscribe(baseUrls[0]!, client, webhooks);
    const lanes = planFaults(random.fork("faults"), durationMs, harness.targets);
    log("fault schedule:");
    for (const [lane, planned] of lanes.entries()) {
      for (const { at, fault } of planned) log(`  lane ${lane} at ${(at / 1000).toFixed(1)} s: ${describeFault(fault)}`);
    }

    const disturbances = new Disturbances();
    const monitor = startMonitor({ instances: harness.instances, disturbances, healthBoundMs: options["health-bound-ms"], recoveryMs: 10_000 });
    const loadStopped = new AbortController();
    const started = Date.now();
    const workload = runWorkload({
      baseUrls,
      clients,
      adminKey: secrets.ADMIN_API_KEY,
      random: random.fork("workload"),
      users: options.users,
      signal: loadStopped.signal,
    });
    const faults = runFaults(lanes, harness.targets, {
      signal: loadStopped.signal,
      onStart: (_lane, fault) => disturbances.begin(componentOf(fault)),
      onFault: (injected) => {
        disturbances.end(componentOf(injected.fault));
        log(`  [${(injected.startedAt / 1000).toFixed(1)} s → ${(injected.endedAt / 1000).toFixed(1)} s] ${describeFault(injected.fault)}`);
      },
    });
    await sleep(durationMs);
    loadStopped.abort();
    const injected = await faults;
    const { answers, stats, paymentMethods } = await workload;
    const loadMs = Date.now() - started;
    log(`load stopped after ${(loadMs / 1000).toFixed(1)} s; waiting for the resolvers`);

    const resolvedInMs = await waitUntilNothingPending(baseUrls[0]!, secrets.ADMIN_API_KEY, clients, resolverWindowMs);
    const lastScheduledClose = Math.max(0, ...scheduledCloses.map(({ at }) => at.getTime()));
    const lifecycleDue = Math.max(Date.now() + lifecycleWindowMs, lastScheduledClose + scheduledCloseWaitMs);
    log(`resolvers ${resolvedInMs === undefined ? "did not settle everything" : `settled in ${resolvedInMs} ms`}; waiting ${((lifecycleDue - Date.now()) / 1000).toFixed(0)} s for expiries, watched failures and scheduled batches`);
    await sleep(lifecycleDue - Date.now());
    // The expiries' voids and the reversals the watch started are settled in their turn.
    const lifecycleSettledInMs = await waitUntilNothingPending(baseUrls[0]!, secrets.ADMIN_API_KEY, clients, resolverWindowMs);
    const settledInMs = resolvedInMs === undefined || lifecycleSettledInMs === undefined ? undefined : resolvedInMs;
    // The limit sweeper judges a reservation only once it and its payment stood for its grace period.
    await sleep(sweepSettleMs);
    const drainedInMs = await waitUntilWebhooksDrained(baseUrls[0]!, webhookDrainMs);
    log(drainedInMs === undefined ? "webhooks: the queue did not drain" : `webhooks: ${webhooks.received.length} received; the queue drained in ${drainedInMs} ms`);
    const monitorSummary = await monitor.stop();
    const judgedAt = new Date();
    const gathered = await harness.evidence(clients, answers, webhooks);
    const evidence: Evidence = { ...gathered.evidence, scheduledCloses, authorizationTtlMs, judgedAt, paymentMethods };
    const { verify } = gathered;
    log(journalSummary(evidence.journal));
    const violations = checkInvariants(evidence);
    const result: RunResult = {
      mode,
      seed: options.seed,
      durationMs: loadMs,
      loadStartedAt: started,
      stats,
      injected,
      violations,
      monitor: monitorSummary,
      settledInMs,
      verify,
      runDirectory: directory,
      evidence,
      instances: harness.instances.map((instance) => ({ name: instance.name, crashes: instance.process.crashes })),
      droppedVoids: harness.targets.processorProxy?.stats().dropped,
    };
    const maxRssMb = options["max-rss-mb"] ?? (options.embedded ? 1536 : 512);
    const failed = printReport(result, { maxRssBytes: maxRssMb * 1024 * 1024 });
    if (!failed && !options.keep) await rm(directory, { recursive: true, force: true });
    return failed;
  } finally {
    await harness.close();
    await webhooks.close();
    await eventStore?.store.close();
  }
}

/** The --eventstore options as a replay repeats them. */
function eventStoreArguments(): string {
  const quoted = (value: string) => `'${value.replaceAll("'", "'\\''")}'`;
  const given = [
    ["--eventstore", options.eventstore],
    ["--eventstore-kill-command", options["eventstore-kill-command"]],
    ["--eventstore-restart-command", options["eventstore-restart-command"]],
  ] as const;
  return given.map(([name, value]) => (value === undefined ? "" : ` ${name} ${quoted(value)}`)).join("");
}

/**
 * The EventStoreDB given, checked empty, with a client of the harness's own that sees when a
 * restarted node serves reads again.
 */
async function openEventStoreSetting(): Promise<{ setting: EventStoreSetting; store: EventStore } | undefined> {
  const url = options.eventstore;
  if (url === undefined) return undefined;
  const store = createEventStoreDbEventStore(url);
  await requireEmpty(store, url);
  const kill = options["eventstore-kill-command"];
  const restart = options["eventstore-restart-command"];
  const node = kill && restart ? eventStoreNode(url, store, { kill, restart }) : undefined;
  return { setting: { url, node }, store };
}

/** Every client's endpoint, subscribed to everything before the load (and its faults) starts. */
async function subscribe(baseUrl: string, client: WorkloadClient, receiver: WebhookReceiver): Promise<void> {
  const url = receiver.urlFor(client.clientId);
  const response = await fetch(`${baseUrl}/v1/webhook-endpoints`, {
    method: "POST",
    headers: { authorization: `Bearer ${client.key}`, "content-type": "application/json" },
    body: JSON.stringify({ url, events: ["*"], description: "chaos receiver" }),
  });
  if (response.status !== 201) throw new Error(`POST /v1/webhook-endpoints answered ${response.status}: ${await response.text()}`);
  const { secret } = z.object({ secret: z.string() }).parse(await response.json());
  receiver.trust(client.clientId, secret);
}

/** The retries' window: with a 100 ms base, 8 failed attempts in a row still fit. */
const webhookDrainMs = 60_000;

/** Waits until the service owes no webhook delivery (its /metrics gauge); how long it took, or undefined. */
async function waitUntilWebhooksDrained(baseUrl: string, timeoutMs: number): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const metrics = await fetch(`${baseUrl}/metrics`).then((response) => response.text(), () => "");
    if (/^webhook_queue_depth 0$/m.test(metrics)) return Date.now() - started;
    await sleep(500);
  }
  return undefined;
}

process.exit((await run()) ? 1 : 0);
