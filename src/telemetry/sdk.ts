import { type Attributes, context, diag, DiagLogLevel, type Link, TraceFlags } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { parseKeyPairsIntoRecord } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import type { SamplerName, TelemetryConfig } from "./config.ts";
import { ThrottledLog } from "../jobs/throttled-log.ts";
import type { Logger } from "../logger.ts";
import { TRACER_NAME, type Tracing } from "./tracing.ts";
import { serviceVersion } from "../version.ts";

/** An unreachable collector fails every export (each 5 s): one line a minute says so, with the count. */
const EXPORT_FAILURE_LOG_INTERVAL_MS = 60_000;

/** The service's tracer provider, exporting OTLP/HTTP JSON in batches. */
export function startTracerProvider(config: Extract<TelemetryConfig, { tracing: true }>, logger: Logger): Tracing {
  // Spans follow the async work that made them through the API's one context manager. Two
  // services in one process (tests, benches) share it: it holds no service's state, only the
  // active span; the one that registered it removes it when it stops.
  const registered = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // The SDK reports failed exports (spans dropped) through its diagnostic logger, silent unless set.
  const failures = new ThrottledLog({
    logger,
    limit: 1,
    intervalMs: EXPORT_FAILURE_LOG_INTERVAL_MS,
    summary: "tracing: more of the same, spans dropped",
  });
  const warn = (message: string) => failures.warn({ tracesUrl: config.tracesUrl }, `tracing: ${message}`);
  const silent = () => {};
  const diagnosed = diag.setLogger({ error: warn, warn, info: silent, debug: silent, verbose: silent }, DiagLogLevel.WARN);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      // The release's own, unless OTEL_RESOURCE_ATTRIBUTES names another.
      [ATTR_SERVICE_VERSION]: serviceVersion,
      ...parseKeyPairsIntoRecord(config.resourceAttributes),
      [ATTR_SERVICE_NAME]: config.serviceName,
    }),
    sampler: samplerOf(config.sampler, config.samplerRatio),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl }))],
  });
  return {
    enabled: true,
    tracer: provider.getTracer(TRACER_NAME),
    async shutdown() {
      // The last spans are worth one try; a collector that is gone must not fail the shutdown.
      await provider.shutdown().catch((error: unknown) => warn(`the last spans were not exported (${error instanceof Error ? error.message : String(error)})`));
      failures.flush();
      // Untraced again: a service started later in this process with tracing off costs nothing.
      if (registered) context.disable();
      if (diagnosed) diag.disable();
    },
  };
}

function samplerOf(name: SamplerName, ratio: number): Sampler {
  switch (name) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return followingLinks(new TraceIdRatioBasedSampler(ratio));
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: followingLinks(new TraceIdRatioBasedSampler(ratio)) });
  }
}

/**
 * Later work for a payment (a projection batch, a resolver inquiry, a webhook delivery) starts a
 * trace of its own, linked to the payment's. At 10 % sampling a sampled payment would otherwise
 * lose 90 % of its later story: work linked to a sampled trace is always sampled.
 */
function followingLinks(root: Sampler): Sampler {
  return {
    shouldSample(activeContext, traceId, spanName, spanKind, attributes: Attributes, links: Link[]) {
      if (links.some((link) => (link.context.traceFlags & TraceFlags.SAMPLED) !== 0)) {
        return { decision: SamplingDecision.RECORD_AND_SAMPLED };
      }
      return root.shouldSample(activeContext, traceId, spanName, spanKind, attributes, links);
    },
    toString: () => `FollowingLinks{${root.toString()}}`,
  };
}
