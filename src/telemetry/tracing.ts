import { ProxyTracerProvider, type Tracer } from "@opentelemetry/api";
import type { Logger } from "../logger.ts";
import type { TelemetryConfig } from "./config.ts";

export interface Tracing {
  /** False: the tracer is a no-op, nothing is started and nothing wraps the hot path. */
  enabled: boolean;
  tracer: Tracer;
  /** Exports the spans still buffered, then stops: the last ones before a shutdown are the ones wanted. */
  shutdown(): Promise<void>;
}

export const TRACER_NAME = "payment-ledger";

/** No SDK, no exporter, no context manager: every span is the API's non-recording one. */
export const tracingOff: Tracing = {
  enabled: false,
  tracer: new ProxyTracerProvider().getTracer(TRACER_NAME),
  shutdown: async () => {},
};

/**
 * The service's tracing as configured. The SDK is loaded only when tracing is on: off, nothing of
 * it is started, or even imported.
 */
export async function startTracing(config: TelemetryConfig, logger: Logger): Promise<Tracing> {
  if (!config.tracing) return tracingOff;
  const { startTracerProvider } = await import("./sdk.ts");
  return startTracerProvider(config, logger);
}

/** For the start's log line: where spans go (the endpoint's origin: its path and user part stay out) and how they are sampled. */
export function describeTracing(config: TelemetryConfig): string {
  if (!config.tracing) return "off";
  const ratio = config.sampler.endsWith("traceidratio") ? ` ${config.samplerRatio}` : "";
  return `${new URL(config.tracesUrl).origin}, ${config.sampler}${ratio}`;
}
