import { z } from "zod";

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

export const samplers = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export type SamplerName = (typeof samplers)[number];

/**
 * The standard OpenTelemetry variables this service reads. The OTLP exporter itself also reads
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT` and `OTEL_EXPORTER_OTLP_COMPRESSION`
 * (and their `_TRACES_` forms) from the process environment.
 */
export const telemetryEnvironment = {
  OTEL_SDK_DISABLED: optionalText.pipe(z.enum(["true", "false"]).optional()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  OTEL_SERVICE_NAME: optionalText,
  OTEL_RESOURCE_ATTRIBUTES: optionalText,
  OTEL_TRACES_SAMPLER: optionalText.pipe(z.enum(samplers).optional()),
  OTEL_TRACES_SAMPLER_ARG: optionalText.pipe(z.coerce.number<string>().min(0).max(1).optional()),
};

type TelemetryEnvironment = z.output<z.ZodObject<typeof telemetryEnvironment>>;

/** Tracing is off unless an OTLP endpoint is set: then every trace sampled is exported to it. */
export type TelemetryConfig =
  | { tracing: false }
  | {
      tracing: true;
      /** Where spans are POSTed (OTLP/HTTP, JSON). */
      tracesUrl: string;
      serviceName: string;
      /** `key=value,…`, percent-encoded, as the specification has it. */
      resourceAttributes: string | undefined;
      sampler: SamplerName;
      /** The ratio of the `traceidratio` samplers. */
      samplerRatio: number;
    };

export function telemetryConfigOf(env: TelemetryEnvironment): TelemetryConfig {
  const tracesUrl =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (env.OTEL_EXPORTER_OTLP_ENDPOINT && `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`);
  if (env.OTEL_SDK_DISABLED === "true" || !tracesUrl) return { tracing: false };
  return {
    tracing: true,
    tracesUrl,
    serviceName: env.OTEL_SERVICE_NAME ?? "payment-ledger",
    resourceAttributes: env.OTEL_RESOURCE_ATTRIBUTES,
    sampler: env.OTEL_TRACES_SAMPLER ?? "parentbased_always_on",
    samplerRatio: env.OTEL_TRACES_SAMPLER_ARG ?? 1,
  };
}
