import { describe, expect, it } from "vitest";
import { testConfig } from "../support/service.ts";

describe("tracing configuration", () => {
  it("is off without an OTLP endpoint, and with OTEL_SDK_DISABLED=true", () => {
    expect(testConfig(undefined).telemetry).toEqual({ tracing: false });
    expect(testConfig(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }).telemetry).toEqual({ tracing: false });
  });

  it("sends to <endpoint>/v1/traces, or to the traces endpoint as given, with the standard defaults", () => {
    expect(testConfig(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).telemetry).toEqual({
      tracing: true,
      tracesUrl: "http://collector:4318/v1/traces",
      serviceName: "payment-ledger",
      resourceAttributes: undefined,
      sampler: "parentbased_always_on",
      samplerRatio: 1,
    });
    const given = testConfig(undefined, {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      OTEL_SERVICE_NAME: "ledger-eu",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.1",
    }).telemetry;
    expect(given).toMatchObject({ tracesUrl: "https://traces.example/otlp", serviceName: "ledger-eu", sampler: "parentbased_traceidratio", samplerRatio: 0.1 });
  });

  it("refuses an unknown sampler, a ratio outside [0, 1] and an endpoint that is not http(s), naming the variable", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(() => testConfig(undefined, { ...endpoint, OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(/OTEL_TRACES_SAMPLER="sometimes" must be one of "always_on"/);
    expect(() => testConfig(undefined, { ...endpoint, OTEL_TRACES_SAMPLER_ARG: "10" })).toThrow(/OTEL_TRACES_SAMPLER_ARG="10" must be/);
    expect(() => testConfig(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://collector:4317" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT="grpc:\/\/collector:4317" must be/);
  });
});
