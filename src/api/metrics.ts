import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import Negotiator from "negotiator";
import { z } from "zod";
import { collectDefaultMetrics, Counter, Gauge, Histogram, type HistogramConfiguration, type LabelValues, Registry, type RegistryContentType } from "prom-client";
import { type PaymentMetrics, pendingResolutions } from "../commands/payments/dependencies.ts";
import { type Processor, processors } from "../domain/host-configurations/schemas.ts";
import type { LimitName } from "../domain/limits/breach.ts";
import { type TransactionStatus, transactionTypes } from "../domain/payments/index.ts";
import type { CallOutcome } from "../processors/http.ts";
import { REPLAYED_HEADER } from "./idempotency.ts";
import { ApiProblem, type ProblemCode } from "./problems.ts";
import type { ProjectionLag } from "../projections/lag.ts";
import type { PendingAges } from "../projections/transactions/pending-ages.ts";
import type { WebhookAttemptOutcome } from "../jobs/webhook-dispatcher.ts";
import type { WebhookQueue } from "../projections/webhooks/queue.ts";
import type { Secret } from "../domain/secret.ts";
import type { AppendOutcome } from "../telemetry/event-store.ts";

/** The text formats of GET /metrics: Prometheus's, and OpenMetrics, the only one that carries exemplars. */
export const metricsContentTypes = {
  prometheus: Registry.PROMETHEUS_CONTENT_TYPE,
  openmetrics: Registry.OPENMETRICS_CONTENT_TYPE,
} as const;
export type MetricsFormat = keyof typeof metricsContentTypes;

/** The trace and span of the active sampled span, for an exemplar; undefined outside one. */
export type ExemplarOf = () => { trace_id: string; span_id: string } | undefined;

export interface Metrics extends PaymentMetrics {
  /** Every metric in `format`: OpenMetrics shows the latency histograms' exemplars, Prometheus cannot. */
  expose: (format: MetricsFormat) => Promise<string>;
  /**
   * Reads the gauges that need the database (projection lag, pending transactions, settlement
   * mismatches, the webhook queue) and keeps them for the scrapes that follow: a scrape itself
   * reads nothing but memory (`GaugeRefresh` calls this at a fixed interval).
   */
  refreshGauges: () => Promise<void>;
  observeRequest: (labels: LabelValues<"method" | "route" | "status">, seconds: number) => void;
  observeAppend: (outcome: AppendOutcome, seconds: number) => void;
  observeWebhookAttempt: (outcome: WebhookAttemptOutcome, durationMs: number) => void;
  observeProcessorCall: (processor: Processor, outcome: CallOutcome, seconds: number) => void;
  countIdempotencyAnswer: (answer: IdempotencyAnswer) => void;
  countBrokenLink: () => void;
}

/** An answer given for an Idempotency-Key that was already used: its answer again, or a conflict. */
const idempotencyAnswers = ["replayed", "in_progress", "key_reused"] as const;
type IdempotencyAnswer = (typeof idempotencyAnswers)[number];
const idempotencyConflicts: Partial<Record<ProblemCode, IdempotencyAnswer>> = {
  idempotency_request_in_progress: "in_progress",
  idempotency_key_reused: "key_reused",
};

const statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
const transactionOutcomes = ["approved", "declined", "failed", "pending"] as const satisfies readonly TransactionStatus[];
const limitNames = ["maxAmountPerTransaction", "dailyAmount", "dailyCount"] as const satisfies readonly LimitName[];

/** What the database gauges show: asked by `refreshGauges`, never by a scrape. */
export interface MetricSources {
  measureLags: () => Promise<ProjectionLag[]>;
  countPending: () => Promise<PendingAges>;
  countMismatchedSettlements: () => Promise<number>;
  measureWebhookQueue: () => Promise<WebhookQueue>;
}

/**
 * The service's metrics. With `exemplarOf` (tracing on), each bucket of a latency histogram keeps
 * the last observation made within a sampled span and that span's ids; without, no exemplar work
 * is done at all.
 */
export function createMetrics(
  { measureLags, countPending, countMismatchedSettlements, measureWebhookQueue }: MetricSources,
  { exemplarOf }: { exemplarOf?: ExemplarOf } = {},
): Metrics {
  // prom-client takes histograms with exemplars only into an OpenMetrics registry; each render
  // sets the format it is asked for.
  const registry = new Registry<RegistryContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  collectDefaultMetrics({ register: registry });
  // Gauges that prom-client names `_total`, which Prometheus keeps for counters (promtool check
  // metrics): each is the sum of nodejs_active_handles, _requests or _resources by type.
  for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) registry.removeSingleMetric(name);
  const latency = <L extends string>(configuration: HistogramConfiguration<L>) => latencyObserver(registry, configuration, exemplarOf);
  const observeRequest = latency({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  const responses = new Counter({
    name: "http_responses_total",
    help: "HTTP answers by status class (1xx to 5xx); every class starts at 0, so a rate sees the first 5xx",
    labelNames: ["class"] as const,
    registers: [registry],
  });
  for (const statusClass of statusClasses) responses.inc({ class: statusClass }, 0);
  const observeAppend = latency({
    name: "event_store_append_duration_seconds",
    help: "Event store append latency; outcome is ok, conflict or error",
    labelNames: ["outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  });
  const lagSecondsGauge = new Gauge({
    name: "projection_lag_seconds",
    help: "Seconds between the newest event and the last one the projection applied",
    labelNames: ["projection"] as const,
    registers: [registry],
  });
  const lagPositionsGauge = new Gauge({
    name: "projection_lag_positions",
    help: "Global log positions between the head and the projection's last applied event",
    labelNames: ["projection"] as const,
    registers: [registry],
  });
  const pendingGauge = new Gauge({
    name: "pending_transactions",
    help: "Transactions whose outcome is still unknown, by age since their intent",
    labelNames: ["age"] as const,
    registers: [registry],
  });
  const oldestGauge = new Gauge({
    name: "pending_transaction_oldest_age_seconds",
    help: "Age of the oldest transaction whose outcome is still unknown (0 when none)",
    registers: [registry],
  });
  const mismatchedGauge = new Gauge({
    name: "settlements_mismatched",
    help: "Settlement batches whose processor totals differ from the ledger's: reconciliation exceptions to look into",
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: "webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retrying (failed, retry scheduled) or failed (given up)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const observeWebhookDuration = latency({
    name: "webhook_attempt_duration_seconds",
    help: "Time from sending a webhook to its answer (or timeout)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const queueDepthGauge = new Gauge({
    name: "webhook_queue_depth",
    help: "Webhook deliveries not yet delivered nor given up, to enabled endpoints",
    registers: [registry],
  });
  const oldestWebhookGauge = new Gauge({
    name: "webhook_oldest_pending_age_seconds",
    help: "Age of the oldest webhook delivery not yet delivered nor given up (0 when none)",
    registers: [registry],
  });
  const brokenLinks = new Counter({
    name: "event_chain_broken_links_total",
    help:
      "Events served by the API (transaction, payment method and log reads) whose hash-chain link does not verify: " +
      "edited, deleted or reordered in the store; each counted once per process. Any increase is a tampering alarm",
    registers: [registry],
  });
  // Since the last refresh that read every gauge, or since the metrics were made when none has.
  let refreshedAt = performance.now();
  const refreshAgeGauge: Gauge = new Gauge({
    name: "database_gauges_age_seconds",
    help:
      "Seconds since the gauges read from the database (projection lag, pending transactions, settlement mismatches, webhook queue) " +
      "were last refreshed: they are read at a fixed interval, never on a scrape; growing, they are stale",
    registers: [registry],
    collect() {
      refreshAgeGauge.set((performance.now() - refreshedAt) / 1000);
    },
  });
  // One read after the other: a refresh holds one connection at a time.
  async function refreshGauges() {
    const lags = await measureLags();
    const pending = await countPending();
    const mismatched = await countMismatchedSettlements();
    const queue = await measureWebhookQueue();
    for (const lag of lags) {
      lagSecondsGauge.set({ projection: lag.projection }, lag.secondsBehind);
      lagPositionsGauge.set({ projection: lag.projection }, Number(lag.positionsBehind));
    }
    for (const [age, count] of Object.entries(pending.byAge)) pendingGauge.set({ age }, count);
    oldestGauge.set(pending.oldestSeconds);
    mismatchedGauge.set(mismatched);
    queueDepthGauge.set(queue.pending);
    oldestWebhookGauge.set(queue.oldestSeconds);
    refreshedAt = performance.now();
  }
  return {
    expose: serializedRenders(registry),
    refreshGauges,
    observeRequest(labels, seconds) {
      observeRequest(labels, seconds);
      responses.inc({ class: `${String(labels.status).charAt(0)}xx` });
    },
    observeAppend: (outcome, seconds) => observeAppend({ outcome }, seconds),
    observeWebhookAttempt(outcome, durationMs) {
      webhookAttempts.inc({ outcome });
      observeWebhookDuration({}, durationMs / 1000);
    },
    countBrokenLink: () => brokenLinks.inc(),
    ...createPaymentMetrics(registry, latency),
  };
}

/** A latency histogram in `registry`, and how to observe it: with the active sampled span as exemplar when `exemplarOf` is given. */
function latencyObserver<L extends string>(
  registry: Registry<RegistryContentType>,
  configuration: HistogramConfiguration<L>,
  exemplarOf: ExemplarOf | undefined,
): (labels: LabelValues<L>, seconds: number) => void {
  // Of any label names: prom-client's types would take the exemplar's for the histogram's own.
  const histogram = new Histogram<string>({
    ...configuration,
    registers: [registry],
    enableExemplars: exemplarOf !== undefined,
  });
  if (!exemplarOf) return (labels, seconds) => histogram.observe(labels, seconds);
  return (labels, seconds) => histogram.observe({ labels, value: seconds, exemplarLabels: exemplarOf() ?? {} });
}

/**
 * Renders the registry in the format asked for, one render at a time. prom-client 15 renames
 * each counter in place to its OpenMetrics family name when it renders OpenMetrics
 * (`transactions_total` becomes `transactions`, its samples `transactions_total`), which would
 * take `_total` off every later Prometheus render: the names are put back after each render, and
 * no other render starts in between.
 */
function serializedRenders(registry: Registry<RegistryContentType>): Metrics["expose"] {
  let previous: Promise<unknown> = Promise.resolve();
  async function render(format: MetricsFormat) {
    const names = new Map(registry.getMetricsAsArray().map((metric) => [metric, metric.name]));
    registry.setContentType(metricsContentTypes[format]);
    try {
      return await registry.metrics();
    } finally {
      for (const [metric, name] of names) metric.name = name;
    }
  }
  return (format) => {
    const rendered = previous.then(() => render(format));
    previous = rendered.catch(() => undefined);
    return rendered;
  };
}

/**
 * Counters of what payments came to and how long processors took. Every series of a fixed label
 * set starts at 0, so that a rate over it exists before its first increment.
 */
function createPaymentMetrics(
  registry: Registry<RegistryContentType>,
  latency: <L extends string>(configuration: HistogramConfiguration<L>) => (labels: LabelValues<L>, seconds: number) => void,
): Pick<Metrics, keyof PaymentMetrics | "observeProcessorCall" | "countIdempotencyAnswer"> {
  const transactions = new Counter({
    name: "transactions_total",
    help: "Transactions by type, processor and first recorded outcome (pending: the processor did not answer in time)",
    labelNames: ["type", "processor", "outcome"] as const,
    registers: [registry],
  });
  for (const type of transactionTypes) {
    for (const processor of processors) {
      for (const outcome of transactionOutcomes) transactions.inc({ type, processor, outcome }, 0);
    }
  }
  const observeProcessorDuration = latency({
    name: "processor_request_duration_seconds",
    help: "Latency of each call to a processor; outcome is answered, timeout or error (no answer for another reason)",
    labelNames: ["processor", "outcome"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  const resolutions = new Counter({
    name: "pending_resolutions_total",
    help:
      "What the pending resolver recorded: an outcome the processor reported (approved_late: after a failure on not found), " +
      "a reversal's result, or still_pending (no usable answer; asked again later)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of pendingResolutions) resolutions.inc({ outcome }, 0);
  const limitDeclines = new Counter({
    name: "limit_declines_total",
    help: "Authorizations and sales declined as limit_exceeded, by the client limit they would have broken",
    labelNames: ["limit"] as const,
    registers: [registry],
  });
  for (const limit of limitNames) limitDeclines.inc({ limit }, 0);
  const idempotency = new Counter({
    name: "idempotency_replays_total",
    help: "Requests whose Idempotency-Key was already used: replayed (its answer or transaction again), in_progress (409), key_reused (422)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  for (const outcome of idempotencyAnswers) idempotency.inc({ outcome }, 0);
  return {
    countTransaction: ({ type, processor, status }) => transactions.inc({ type, processor, outcome: status }),
    countLimitDecline: (limit) => limitDeclines.inc({ limit }),
    countPendingResolution: (outcome) => resolutions.inc({ outcome }),
    observeProcessorCall: (processor, outcome, seconds) => observeProcessorDuration({ processor, outcome }, seconds),
    countIdempotencyAnswer: (outcome) => idempotency.inc({ outcome }),
  };
}

/**
 * Times every request by its route pattern (never the raw URL, which holds ids) and counts the
 * answers to reused Idempotency-Keys.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", async (request, reply) => {
    metrics.observeRequest(
      { method: request.method, route: request.routeOptions.url ?? "unmatched", status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (reply.getHeader(REPLAYED_HEADER) === "true") metrics.countIdempotencyAnswer("replayed");
  });
  app.addHook("onError", async (_request, _reply, error) => {
    const conflict = error instanceof ApiProblem ? idempotencyConflicts[error.code] : undefined;
    if (conflict) metrics.countIdempotencyAnswer(conflict);
  });
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Serves the metrics at GET /metrics; with a token, only to `Authorization: Bearer <token>`.
 * The header is compared through its hash, in constant time: how much of it matched never shows
 * in the answer's timing.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: Secret<string> | undefined): void {
  const expected = token === undefined ? undefined : sha256(`Bearer ${token.expose()}`);
  app.get(
    "/metrics",
    {
      schema: {
        tags: ["operations"],
        operationId: "getMetrics",
        summary: "Prometheus metrics",
        description:
          "The service's metrics in the Prometheus text format, or in OpenMetrics to `Accept: application/openmetrics-text` (Prometheus " +
          "asks for it by default): with tracing on, the latency histograms' buckets carry exemplars, the trace and span of an observation. " +
          "Reading them costs the database nothing: the gauges that need it are " +
          "read at a fixed interval (`database_gauges_age_seconds` says how long ago). When the service runs with `METRICS_TOKEN`, " +
          "the request must carry `Authorization: Bearer <METRICS_TOKEN>`; otherwise 401 `invalid_credentials`.",
        // Open, or behind the token: as the service is configured.
        security: [{}, { metricsToken: [] }],
        produces: ["text/plain", "application/openmetrics-text"],
        response: { 200: z.string().describe("Prometheus text format 0.0.4, or OpenMetrics 1.0.0") },
      },
    },
    async (request, reply) => {
      if (expected && !timingSafeEqual(sha256(request.headers.authorization ?? ""), expected)) {
        throw new ApiProblem("invalid_credentials", "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`.");
      }
      const format = negotiatedFormat(request.headers.accept);
      return reply.type(metricsContentTypes[format]).send(await metrics.expose(format));
    },
  );
}

/**
 * OpenMetrics when the Accept header prefers `application/openmetrics-text` (Prometheus sends it
 * first, at the highest q); the Prometheus text format to every other scraper, as before, and
 * when both are equally acceptable (an Accept of any type).
 */
export function negotiatedFormat(accept: string | undefined): MetricsFormat {
  const available = [metricsContentTypes.prometheus, metricsContentTypes.openmetrics];
  const preferred = new Negotiator({ headers: { accept } }).mediaType(available);
  return preferred === metricsContentTypes.openmetrics ? "openmetrics" : "prometheus";
}
