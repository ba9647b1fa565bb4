import type { RequestListener } from "node:http";
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { FastifyInstance } from "fastify";
import { callerTraceContext } from "./spans.ts";

/** Probes and scrapes, every few seconds from every monitor: a trace each would bury the payments. */
const untraced = /^\/(health|metrics)(\/|\?|$)/;

/**
 * One trace per request: a server span around everything the request does, a child of the
 * caller's `traceparent` when it sent one. It wraps the server's request listener rather than a
 * hook, so that every hook (the idempotency claim among them) and the handler run inside it.
 * Named by the route pattern, never the raw URL: ids and query strings may carry references.
 * Health probes and metric scrapes are not traced.
 */
export function registerRequestTracing(app: FastifyInstance, tracer: Tracer): void {
  const server = app.server;
  for (const listener of server.listeners("request") as RequestListener[]) {
    server.removeListener("request", listener);
    server.on("request", (request, response) => {
      if (untraced.test(request.url ?? "")) return listener(request, response);
      const parent = callerTraceContext(request.headers);
      const span = tracer.startSpan(
        request.method ?? "HTTP",
        { kind: SpanKind.SERVER, attributes: { "http.request.method": request.method ?? "" } },
        parent,
      );
      response.once("close", () => {
        span.setAttribute("http.response.status_code", response.statusCode);
        if (!response.writableFinished) span.setAttribute("ledger.answered", false);
        if (response.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
      context.with(trace.setSpan(parent, span), () => listener(request, response));
    });
  }
  app.addHook("onRequest", async (request) => {
    const span = trace.getActiveSpan();
    const route = request.routeOptions.url;
    span?.setAttribute("ledger.request_id", request.id);
    if (route) {
      span?.updateName(`${request.method} ${route}`);
      span?.setAttribute("http.route", route);
    }
  });
  app.addHook("onResponse", async (request) => {
    const principal = request.principal;
    if (principal?.role === "client") trace.getActiveSpan()?.setAttributes({ "ledger.client_id": principal.clientId, "ledger.key_id": principal.keyId });
  });
}
