import underPressure from "@fastify/under-pressure";
import type { FastifyInstance } from "fastify";
import { ApiProblem, RETRY_AFTER_SECONDS } from "./problems.ts";

export interface LoadSheddingOptions {
  /** Requests under way at once beyond which new ones are refused. */
  maxInFlight: number;
  /** Mean event-loop delay beyond which new requests are refused; 0: never. */
  maxEventLoopDelayMs: number;
}

/**
 * Refuses requests with 503 and retry-after when the process is saturated: too many requests
 * under way (a stalled database keeps them waiting) or an event loop too slow to serve them.
 * The refusal comes at admission (onRequest), before any handler has written anything, so a
 * refused payment never ran; what was admitted runs to its answer.
 */
export async function registerLoadShedding(scope: FastifyInstance, options: LoadSheddingOptions): Promise<void> {
  // Its refusal reaches the error handler as a 503, answered as `service_unavailable`.
  await scope.register(underPressure, { maxEventLoopDelay: options.maxEventLoopDelayMs, retryAfter: RETRY_AFTER_SECONDS });

  let inFlight = 0;
  scope.addHook("onRequest", async (_request, reply) => {
    if (inFlight >= options.maxInFlight) {
      throw new ApiProblem("service_unavailable", `${inFlight} requests are under way, the most this instance takes; retry later.`);
    }
    inFlight += 1;
    // 'close' comes once per response, answered or abandoned by its client.
    reply.raw.once("close", () => (inFlight -= 1));
  });
}
