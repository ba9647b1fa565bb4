import type { FastifyInstance } from "fastify";

/**
 * One line for each request, once it is answered: its route pattern (never the raw URL, whose ids
 * and query string may carry references), status, duration, caller and request id. Fastify's own
 * two lines a request are turned off (`disableRequestLogging`), since its completion line names
 * neither the route nor the caller.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const principal = request.principal;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        caller: principal?.role,
        ...(principal?.role === "client" ? { clientId: principal.clientId, keyId: principal.keyId } : {}),
      },
      "request completed",
    );
  });
}
