import type { Processor } from "../domain/host-configurations/schemas.ts";
import type { HttpClient } from "./http.ts";
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
}

export function createConnectors({ baseUrls, http }: ConnectorsOptions): Connectors {
  const base = (processor: Processor) => baseUrls[processor].replace(/\/+$/, "");
  return {
    processor_a: createProcessorA(http, base("processor_a")),
    processor_b: createProcessorB(http, base("processor_b")),
    processor_c: createProcessorC(http, base("processor_c")),
    processor_d: createProcessorD(http, base("processor_d")),
  };
}
