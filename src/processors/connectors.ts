import type { Processor } from "../domain/host-configurations/schemas.ts";
import { type CredentialsLog, credentialsReader } from "./credentials.ts";
import { type CallOutcome, type HttpClient, timedHttpClient } from "./http.ts";
import type { Connectors } from "./port.ts";
import { createProcessorA } from "./processor-a.ts";
import { createProcessorB } from "./processor-b.ts";
import { createProcessorC } from "./processor-c.ts";
import { createProcessorD } from "./processor-d.ts";

export interface ConnectorsOptions {
  /** Where each processor listens, without a trailing slash, e.g. the simulator's `baseUrls`. */
  baseUrls: Record<Processor, string>;
  /** The connection pool all four share; its timeout is how long to wait before the outcome is `unknown`. */
  http: HttpClient;
  /** Told the duration and outcome of every call to a processor (the service's metrics); tests and benches leave it out. */
  observeCall?: (processor: Processor, outcome: CallOutcome, seconds: number) => void;
  /** Told of a host configuration's credentials that cannot be sent (the service's logger); tests and benches may leave it out. */
  log?: CredentialsLog;
}

export function createConnectors({ baseUrls, http, observeCall, log }: ConnectorsOptions): Connectors {
  const base = (processor: Processor) => baseUrls[processor].replace(/\/+$/, "");
  const httpFor = (processor: Processor) =>
    observeCall ? timedHttpClient(http, (outcome, seconds) => observeCall(processor, outcome, seconds)) : http;
  const credentials = credentialsReader(log);
  return {
    processor_a: createProcessorA(httpFor("processor_a"), base("processor_a")),
    processor_b: createProcessorB(httpFor("processor_b"), base("processor_b"), credentials),
    processor_c: createProcessorC(httpFor("processor_c"), base("processor_c"), credentials),
    processor_d: createProcessorD(httpFor("processor_d"), base("processor_d"), credentials),
  };
}
