import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiProblem } from "./problems.ts";

/**
 * Fastify's own answer to a request that arrives while it closes is plain JSON; with this,
 * registerGracefulClose answers it as problem+json with retry-after instead.
 */
export const gracefulCloseOptions = { return503OnClosing: false } as const;

/**
 * Makes close() resolve only once every request already being handled has been answered (new
 * ones get 503 `service_unavailable`), so the caller can then close what the handlers use; at most `graceMs`.
 * Fastify alone does not: Node's server.close() waits for open connections, not for handlers, so
 * a handler whose client has gone away (a load test ending, a client timeout) runs on unseen; and
 * a request answered after close() began keeps its keep-alive connection open, which
 * server.close() then waits for until the keep-alive timeout (72 s).
 */
export function registerGracefulClose(app: FastifyInstance, graceMs: number): void {
  /**
   * From preHandler on: there the body has been read, and the handler runs to its answer even if
   * the client leaves. A request whose client leaves before its body is read is dropped by fastify
   * (it waits on the closed stream) and never answered, so it must not be waited for.
   */
  const handling = new Set<FastifyReply>();
  // A request whose client has gone is answered (to no one) without a hook or an event to say so:
  // the next look that finds it sent forgets it.
  const forgetAnswered = () => {
    for (const reply of handling) if (reply.sent) handling.delete(reply);
  };
  app.addHook("preHandler", async (_request, reply) => {
    handling.add(reply);
    if (reply.raw.destroyed) {
      forgetAnswered();
      return;
    }
    reply.raw.once("close", () => {
      if (reply.sent) handling.delete(reply);
      else forgetAnswered();
    });
  });

  let closing = false;
  // Refused before any handler runs: nothing of it has been done, another instance can take it.
  app.addHook("onRequest", async (_request, reply) => {
    if (!closing) return;
    reply.header("connection", "close");
    throw new ApiProblem("service_unavailable", "The service is stopping; retry the request.");
  });
  // Fastify closes the connection of the requests that arrive after close() began, not of those
  // already running.
  app.addHook("onSend", async (_request, reply, payload) => {
    if (closing) reply.header("connection", "close");
    return payload;
  });

  let deadline = 0;
  let cutOff: NodeJS.Timeout | undefined;
  app.addHook("preClose", async () => {
    closing = true;
    deadline = Date.now() + graceMs;
    cutOff = setTimeout(() => app.server.closeAllConnections(), graceMs);
  });
  // Runs after fastify's own onClose, which ends once server.close() has: every connection closed.
  app.addHook("onClose", async () => {
    forgetAnswered();
    while (handling.size > 0 && Date.now() < deadline) {
      await sleep(20);
      forgetAnswered();
    }
    clearTimeout(cutOff);
    if (handling.size > 0) app.log.warn({ requests: handling.size, graceMs }, "closing with requests still running");
  });
}
