import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance } from "fastify";

/**
 * `server-timing: processor;dur=<ms>, app;dur=<ms>` on every `/v1` answer: how long the request
 * waited on processor calls, and the rest of its time in the service, so a client or a load test
 * can tell the latency the platform adds from the processors' own.
 */
export interface ServerTiming {
  /** Counts a processor call's duration toward the request it was made for (none outside a request: jobs). */
  addProcessorTime(seconds: number): void;
  register(app: FastifyInstance): void;
}

interface RequestTiming {
  processorMs: number;
}

export function createServerTiming(): ServerTiming {
  const timings = new AsyncLocalStorage<RequestTiming>();
  return {
    addProcessorTime(seconds) {
      const timing = timings.getStore();
      if (timing) timing.processorMs += seconds * 1000;
    },
    register(app) {
      app.addHook("onRequest", (_request, _reply, done) => {
        timings.run({ processorMs: 0 }, done);
      });
      app.addHook("onSend", async (_request, reply) => {
        const processorMs = timings.getStore()?.processorMs ?? 0;
        const appMs = Math.max(0, reply.elapsedTime - processorMs);
        reply.header("server-timing", `processor;dur=${processorMs.toFixed(1)}, app;dur=${appMs.toFixed(1)}`);
      });
    },
  };
}
