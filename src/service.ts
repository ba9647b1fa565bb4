import type { Server as HttpsServer } from "node:https";
import { type Kysely, sql } from "kysely";
import { buildApp } from "./api/app.ts";
import { httpsOptions, serveTls } from "./api/tls.ts";
import { GaugeRefresh } from "./api/gauge-refresh.ts";
import { createMetrics } from "./api/metrics.ts";
import { describeAdminKey, resolveAdminKey } from "./auth/admin-key.ts";
import { createRegistries } from "./commands/context.ts";
import type { Config } from "./config.ts";
import { PendingResolver } from "./jobs/pending-resolver.ts";
import { startCheckpointRecorder } from "./jobs/checkpoint-recorder.ts";
import { countPendingByAge } from "./projections/transactions/pending-ages.ts";
import { createFingerprintKeyring } from "./crypto/card-fingerprint.ts";
import { loadFingerprintKeys } from "./crypto/fingerprint-key-store.ts";
import { createRequestHasher } from "./api/request-hash.ts";
import { loadMasterKeys } from "./crypto/master-keys.ts";
import { createSecretBox } from "./crypto/secrets.ts";
import { type CrossProcessWakes, crossProcessWakes } from "./db/cross-process-wakes.ts";
import { type DatabaseConnection, openDatabase } from "./db/connection.ts";
import type { Database } from "./db/schema.ts";
import type { EventStore } from "./eventstore/port.ts";
import { openEventStore } from "./eventstore/open.ts";
import type { Logger } from "./logger.ts";
import { measureLag } from "./projections/lag.ts";
import { projections } from "./projections/all.ts";
import { startProjectionRunners } from "./projections/projector.ts";
import { ReadYourWrites } from "./projections/read-your-writes.ts";
import { transactionLocator } from "./projections/transactions/locate-transaction.ts";
import { paymentsWithCardOf } from "./projections/transactions/payments-with-card.ts";
import { settlementCandidatesOf } from "./projections/transactions/settlement-candidates.ts";
import { paymentSettingsLookup } from "./projections/clients/payment-settings.ts";
import { enabledConfigurationsBefore } from "./projections/host-configurations/enabled-before.ts";
import { createCardVault } from "./vault/card-vault.ts";
import { createStoredCards } from "./vault/stored-cards.ts";
import { createConnectors } from "./processors/connectors.ts";
import { processors } from "./domain/host-configurations/schemas.ts";
import type { Secret } from "./domain/secret.ts";
import { createHttpClient } from "./processors/http.ts";
import { type Simulator, startSimulator } from "./processors/simulator/server.ts";
import { IdempotencyPurge } from "./jobs/idempotency-purge.ts";
import { LimitSweeper } from "./jobs/limit-sweeper.ts";
import { Lifecycle } from "./jobs/lifecycle.ts";
import { countMismatchedSettlements } from "./projections/settlements/queries.ts";
import { measureWebhookQueue } from "./projections/webhooks/queue.ts";
import { WebhookDispatcher } from "./jobs/webhook-dispatcher.ts";
import { WebhookLogPurge } from "./jobs/webhook-log-purge.ts";
import { createWebhookSender } from "./webhooks/destination.ts";
import { createHostResolver } from "./webhooks/host-resolver.ts";
import { timedEventStore, tracedEventStore } from "./telemetry/event-store.ts";
import { sampledSpanIds } from "./telemetry/spans.ts";
import { tracedConnectors, tracedHttpClient } from "./telemetry/processors.ts";
import { createServerTiming } from "./api/server-timing.ts";
import { describeTracing, startTracing } from "./telemetry/tracing.ts";

/**
 * How long stop() waits, beyond the processor timeout, for a request it finds running: the wait
 * for the read model (5 s) and the writes around it.
 */
const STOP_GRACE_BEYOND_PROCESSOR_MS = 10_000;

/** How often the gauges of /metrics that need the database are read: Prometheus's usual scrape interval. */
const GAUGE_REFRESH_MS = 15_000;

export interface Service {
  url: string;
  /** The admin key, when this start generated it: shown once by the caller, stored nowhere. */
  generatedAdminKey: Secret<string> | undefined;
  stop(): Promise<void>;
}

/**
 * Opens the stores (or takes over an open database), runs the migrations and projections, and
 * serves HTTP until stopped.
 */
export async function startService(
  config: Config,
  logger: Logger,
  opened?: DatabaseConnection,
  /**
   * `now`: the clock every command and job reads; tests move it to settlement times and expiries.
   * `gaugeRefreshMs`: how often the database gauges of /metrics are read.
   * `projections`: `"here"` runs the projection runners on this process's event loop; `"elsewhere"`
   * leaves them to a projector (`startProjector`, in another process) on the same database.
   * `openStore`: how the event store is opened; by default EVENTSTORE_URL's EventStoreDB, else the
   * database. Tests give an EventStoreDB client over a fake server.
   */
  {
    now = () => new Date(),
    gaugeRefreshMs = GAUGE_REFRESH_MS,
    projections: projectionsRun = "here",
    openStore = (db, wakes) => openEventStore(config.eventStoreUrl, db, wakes),
  }: {
    now?: () => Date;
    gaugeRefreshMs?: number;
    projections?: "here" | "elsewhere";
    openStore?: (db: Kysely<Database>, wakes: CrossProcessWakes | undefined) => EventStore;
  } = {},
): Promise<Service> {
  const database =
    opened ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }));
  const tracing = await startTracing(config.telemetry, logger);
  const { tracer } = tracing;
  const wakes = crossProcessWakes(config, database, logger);
  const rawStore = openStore(database.db, wakes);
  const metrics = createMetrics({
    measureLags: async () => {
      const lags = [];
      for (const projection of projections) lags.push(await measureLag(database.db, rawStore, projection));
      return lags;
    },
    countPending: () => countPendingByAge(database.db, now()),
    countMismatchedSettlements: () => countMismatchedSettlements(database.db),
    measureWebhookQueue: () => measureWebhookQueue(database.db),
  }, { exemplarOf: tracing.enabled ? sampledSpanIds : undefined });
  // Timed within the append's span, so that the append histogram's exemplar is that span.
  const timedStore = timedEventStore(rawStore, metrics);
  const store = tracing.enabled ? tracedEventStore(timedStore, tracer) : timedStore;
  const registries = createRegistries(store, tracer);
  const readYourWrites = new ReadYourWrites();
  wakes?.onApplied((projection) => readYourWrites.appliedElsewhere(projection));
  // The read side's lookups across streams, which commands take as ports.
  const readSide = {
    locateTransaction: transactionLocator({ db: database.db, store, readYourWrites }),
    settlementCandidates: settlementCandidatesOf(database.db, store),
    paymentsWithCard: paymentsWithCardOf(database.db, store),
    paymentSettingsOf: paymentSettingsLookup(database.db),
    enabledConfigurationsBefore: enabledConfigurationsBefore(database.db),
  };
  const adminKey = await resolveAdminKey(database.db, config.adminApiKey);
  const secrets = createSecretBox(await loadMasterKeys(config.secretsMasterKeys, config.dataDir, logger));
  const fingerprintKeys = createFingerprintKeyring(
    await loadFingerprintKeys({ configured: config.cardFingerprintKey, db: database.db, secrets, dataDir: config.dataDir, logger }),
  );
  const fingerprint = fingerprintKeys.fingerprint;
  // The card vault's keys, kept apart from the event log and the read models.
  const vault = { cardVault: createCardVault(database.db, secrets), storedCards: createStoredCards(database.db, secrets) };
  // With no processor URLs configured, the simulator of all four runs on loopback.
  let simulator: Simulator | undefined;
  let baseUrls = config.processorUrls;
  if (!baseUrls) {
    simulator = await startSimulator({ dataDir: `${config.dataDir}/simulator`, latency: config.simulatorLatency });
    baseUrls = simulator.baseUrls;
  }
  const simulatedProcessors = simulator ? processors : [];
  const processorHttp = createHttpClient({ timeoutMs: config.processorTimeoutMs });
  const serverTiming = createServerTiming();
  const observeCall: typeof metrics.observeProcessorCall = (processor, outcome, seconds) => {
    metrics.observeProcessorCall(processor, outcome, seconds);
    serverTiming.addProcessorTime(seconds);
  };
  const connectors = tracing.enabled
    ? tracedConnectors(createConnectors({ baseUrls, http: tracedHttpClient(processorHttp, tracer), observeCall, log: logger }), tracer)
    : createConnectors({ baseUrls, http: processorHttp, observeCall, log: logger });
  const runners =
    projectionsRun === "here" ? startProjectionRunners({ db: database.db, store, logger, readYourWrites, tracer }) : undefined;
  const systemContext = {
    db: database.db,
    store,
    now,
    secrets,
    connectors,
    processorTimeoutMs: config.processorTimeoutMs,
    fingerprint,
    logger,
    metrics,
    registries,
    ...readSide,
    ...vault,
    metadata: { actor: { role: "system" } },
  };
  const resolver = new PendingResolver({
    context: systemContext,
    logger,
    intervalMs: config.pendingResolverIntervalMs,
    timing: {
      processorTimeoutMs: config.processorTimeoutMs,
      processorOwnTimeoutMs: config.processorOwnTimeoutMs,
      pendingReversalAfterMs: config.pendingReversalAfterMs,
    },
    leaseMs: 10_000,
  });
  resolver.start();
  const limitSweeper = new LimitSweeper({
    context: { db: database.db, store, now, registries, metadata: { actor: { role: "system" } } },
    logger,
    intervalMs: config.limitSweepIntervalMs,
    graceMs: config.limitSweepGraceMs,
  });
  limitSweeper.start();
  const lifecycle = new Lifecycle({
    context: systemContext,
    logger,
    intervalMs: config.lifecycleCheckIntervalMs,
    authorizationTtlMs: config.authorizationTtlMs,
    settlementResumeAfterMs: config.settlementResumeAfterMs,
  });
  lifecycle.start();
  const idempotencyPurge = new IdempotencyPurge({
    db: database.db,
    logger,
    intervalMs: config.retentionPurgeIntervalMs,
    retentionMs: config.idempotencyRetentionMs,
    leaseMs: 30_000,
  });
  idempotencyPurge.start();
  const webhookUrlPolicy = {
    allowHttp: config.webhooks.allowHttp,
    allowPrivate: config.webhooks.allowPrivate,
    resolveHost: createHostResolver({ timeoutMs: config.webhooks.dnsTimeoutMs }),
  };
  const webhookSender = createWebhookSender({ ...webhookUrlPolicy, timeoutMs: config.webhooks.timeoutMs });
  const webhookDispatcher = new WebhookDispatcher({
    context: systemContext,
    readYourWrites,
    secrets,
    sender: webhookSender,
    logger,
    intervalMs: config.webhooks.dispatchIntervalMs,
    retryBaseMs: config.webhooks.retryBaseMs,
    observe: metrics.observeWebhookAttempt,
  });
  webhookDispatcher.start();
  const gaugeRefresh = new GaugeRefresh({ refresh: metrics.refreshGauges, intervalMs: gaugeRefreshMs, logger });
  await gaugeRefresh.start();
  const webhookLogPurge = new WebhookLogPurge({
    db: database.db,
    logger,
    intervalMs: config.retentionPurgeIntervalMs,
    retentionMs: config.webhooks.logRetentionMs,
  });
  webhookLogPurge.start();
  const checkpointRecorder = await startCheckpointRecorder(config.checkpoints, { store, now, logger });

  const app = await buildApp({
    logger,
    tracing,
    db: database.db,
    store,
    now,
    registries,
    readYourWrites,
    ...readSide,
    ...vault,
    metrics,
    serverTiming,
    // The app's dependencies take the token as text (src/api/app.ts); it is compared, never printed.
    metricsToken: config.metricsToken,
    secrets,
    connectors,
    processorTimeoutMs: config.processorTimeoutMs,
    fingerprint,
    webhookUrlPolicy,
    adminKey,
    rateLimitPerMinute: config.rateLimitPerMinute,
    bodyLimitBytes: config.bodyLimitBytes,
    requestHasher: createRequestHasher(fingerprintKeys),
    idempotencyInProgressTimeoutMs: config.idempotencyInProgressTimeoutMs,
    idempotencyRetentionMs: config.idempotencyRetentionMs,
    settlement: { syncWaitMs: config.settlementSyncWaitMs, resumeAfterMs: config.settlementResumeAfterMs },
    closeGraceMs: config.processorTimeoutMs + STOP_GRACE_BEYOND_PROCESSOR_MS,
    requestTimeoutMs: config.requestTimeoutMs,
    connectionTimeoutMs: config.connectionTimeoutMs,
    loadShedding: { maxInFlight: config.maxInFlightRequests, maxEventLoopDelayMs: config.maxEventLoopDelayMs },
    simulatedProcessors,
    ...(config.tls && { https: httpsOptions(config.tls) }),
    checkReadiness: async () => {
      // Reads a row of every read model: a table that cannot be read fails every GET.
      for (const table of projections.flatMap((projection) => projection.tables)) {
        await sql`select 1 from ${sql.table(table)} limit 1`.execute(database.db);
      }
      await store.readHead();
    },
  });
  const stopWatchingTls = config.tls && serveTls(app.server as HttpsServer, config.tls, logger);
  const url = await app.listen({ port: config.port, host: config.host });
  logger.info(
    {
      database: database.kind,
      eventStore: config.eventStoreUrl ? "eventstoredb" : "postgres",
      simulatedProcessors,
      ...(simulator ? { simulator: simulator.url } : {}),
      ...describeAdminKey(adminKey),
      tracing: describeTracing(config.telemetry),
    },
    "payment ledger listening",
  );
  return {
    url,
    generatedAdminKey: adminKey.kind === "stored" ? adminKey.generated : undefined,
    async stop() {
      // Refuses new requests and resolves once the running ones are answered (at most the grace
      // period): they need the projection runners (their read-model wait), the simulator and the
      // database, so those stop after it. The resolver waits for the read model too. The runners
      // apply what was answered before they stop (waiting 5 s at most for any one write).
      await app.close();
      stopWatchingTls?.();
      await resolver.stop();
      await limitSweeper.stop();
      await lifecycle.stop();
      await idempotencyPurge.stop();
      await webhookDispatcher.stop();
      await webhookLogPurge.stop();
      await checkpointRecorder?.stop();
      await webhookSender.close();
      await gaugeRefresh.stop();
      await readYourWrites.awaitOwnWrites({});
      await runners?.stop();
      await processorHttp.close();
      await simulator?.close();
      await store.close();
      await wakes?.close();
      await database.close();
      await tracing.shutdown();
    },
  };
}
