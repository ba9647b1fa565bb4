import type { Processor } from "../domain/host-configurations/schemas.ts";
import type { ConnectorTransport } from "./connector.ts";
import { type CredentialsLog, credentialsReader } from "./credentials.ts";
import { type CallOutcome, type HttpClient, timedHttpClient } from "./http.ts";
import type { Connectors } from "./port.ts";
import { processorA } from "./processor-a.ts";
import { processorB } from "./processor-b.ts";
import { processorC } from "./processor-c.ts";
import { processorD } from "./processor-d.ts";

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
  const credentials = credentialsReader(log);
  const transport = (processor: Processor): ConnectorTransport => ({
    http: observeCall ? timedHttpClient(http, (outcome, seconds) => observeCall(processor, outcome, seconds)) : http,
    baseUrl: baseUrls[processor].replace(/\/+$/, ""),
    credentials,
  });
  return {
    processor_a: processorA(transport("processor_a")),
    processor_b: processorB(transport("processor_b")),
    processor_c: processorC(transport("processor_c")),
    processor_d: processorD(transport("processor_d")),
  };
}
