import type { FastifyInstance } from "fastify";

const PROBES = new Set(["/health/live", "/health/ready", "/metrics"]);

/**
 * One line for each request, once it is answered: its route pattern (never the raw URL, whose ids
 * and query string may carry references), status, duration, caller and request id. Fastify's own
 * two lines a request are turned off (`disableRequestLogging`), since its completion line names
 * neither the route nor the caller. Probes and scrapes that succeed (health, metrics: every few
 * seconds from each orchestrator and Prometheus) log at debug, so they never drown the payments;
 * a failing one logs as any request does.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const principal = request.principal;
    const route = request.routeOptions.url ?? null;
    const routine = route !== null && PROBES.has(route) && reply.statusCode < 300;
    request.log[routine ? "debug" : "info"](
      {
        method: request.method,
        route,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        caller: principal?.role,
        ...(principal?.role === "client" ? { clientId: principal.clientId, keyId: principal.keyId } : {}),
      },
      "request completed",
    );
  });
}
