import type { FastifyInstance } from "fastify";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { EventStore } from "../eventstore/port.ts";
import type { ProjectionLag } from "../projections/lag.ts";
import type { PendingAges } from "../projections/transactions/pending-ages.ts";
import type { WebhookAttemptOutcome } from "../jobs/webhook-dispatcher.ts";
import type { WebhookQueue } from "../projections/webhooks/queue.ts";

export interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  appendDuration: Histogram<"outcome">;
  observeWebhookAttempt: (outcome: WebhookAttemptOutcome, durationMs: number) => void;
}

/** What the gauges show, asked on every scrape so that it is never stale. */
export interface MetricSources {
  measureLags: () => Promise<ProjectionLag[]>;
  countPending: () => Promise<PendingAges>;
  countMismatchedSettlements: () => Promise<number>;
  measureWebhookQueue: () => Promise<WebhookQueue>;
}

export function createMetrics({ measureLags, countPending, countMismatchedSettlements, measureWebhookQueue }: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const appendDuration = new Histogram({
    name: "event_store_append_duration_seconds",
    help: "Event store append latency; outcome is ok, conflict or error",
    labelNames: ["outcome"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const lagGauge = (name: string, help: string, value: (lag: ProjectionLag) => number) => {
    const gauge: Gauge<"projection"> = new Gauge({
      name,
      help,
      labelNames: ["projection"] as const,
      registers: [registry],
      async collect() {
        for (const lag of await measureLags()) gauge.set({ projection: lag.projection }, value(lag));
      },
    });
  };
  lagGauge("projection_lag_seconds", "Seconds between the newest event and the last one the projection applied", (lag) => lag.secondsBehind);
  lagGauge(
    "projection_lag_positions",
    "Global log positions between the head and the projection's last applied event",
    (lag) => Number(lag.positionsBehind),
  );
  const pendingGauge: Gauge<"age"> = new Gauge({
    name: "pending_transactions",
    help: "Transactions whose outcome is still unknown, by age since their intent",
    labelNames: ["age"] as const,
    registers: [registry],
    async collect() {
      const { byAge, oldestSeconds } = await countPending();
      for (const [age, count] of Object.entries(byAge)) pendingGauge.set({ age }, count);
      oldestGauge.set(oldestSeconds);
    },
  });
  const oldestGauge = new Gauge({
    name: "pending_transaction_oldest_age_seconds",
    help: "Age of the oldest transaction whose outcome is still unknown (0 when none)",
    registers: [registry],
  });
  const mismatchedGauge: Gauge = new Gauge({
    name: "settlements_mismatched",
    help: "Settlement batches whose processor totals differ from the ledger's: reconciliation exceptions to look into",
    registers: [registry],
    async collect() {
      mismatchedGauge.set(await countMismatchedSettlements());
    },
  });
  const webhookAttempts = new Counter({
    name: "webhook_deliveries_total",
    help: "Webhook delivery attempts by outcome: delivered, retrying (failed, retry scheduled) or failed (given up)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const webhookDuration = new Histogram({
    name: "webhook_attempt_duration_seconds",
    help: "Time from sending a webhook to its answer (or timeout)",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const queueDepthGauge: Gauge = new Gauge({
    name: "webhook_queue_depth",
    help: "Webhook deliveries not yet delivered nor given up, to enabled endpoints",
    registers: [registry],
    async collect() {
      const queue = await measureWebhookQueue();
      queueDepthGauge.set(queue.pending);
      oldestWebhookGauge.set(queue.oldestSeconds);
    },
  });
  const oldestWebhookGauge = new Gauge({
    name: "webhook_oldest_pending_age_seconds",
    help: "Age of the oldest webhook delivery not yet delivered nor given up (0 when none)",
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    appendDuration,
    observeWebhookAttempt(outcome, durationMs) {
      webhookAttempts.inc({ outcome });
      webhookDuration.observe(durationMs / 1000);
    },
  };
}

/** The same event store, with every append timed. */
export function instrumentEventStore(store: EventStore, metrics: Metrics): EventStore {
  return {
    ...bindAll(store),
    async append(streamId, events, expected) {
      const stop = metrics.appendDuration.startTimer();
      try {
        const result = await store.append(streamId, events, expected);
        stop({ outcome: "ok" });
        return result;
      } catch (error) {
        stop({ outcome: error instanceof Error && error.name === "ConcurrencyError" ? "conflict" : "error" });
        throw error;
      }
    },
  };
}

function bindAll(store: EventStore): EventStore {
  return {
    append: store.append.bind(store),
    readStream: store.readStream.bind(store),
    readStreams: store.readStreams.bind(store),
    readAll: store.readAll.bind(store),
    readHead: store.readHead.bind(store),
    hasEventsAfter: store.hasEventsAfter.bind(store),
    subscribe: store.subscribe.bind(store),
    close: store.close.bind(store),
  };
}

/** Times every request by its route pattern (never the raw URL, which holds ids) and serves /metrics. */
export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook("onResponse", async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? "unmatched", status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get("/metrics", { schema: { hide: true } }, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
