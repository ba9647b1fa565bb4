import type { IncomingHttpHeaders } from "node:http";
import {
  type Context,
  context,
  isSpanContextValid,
  type Link,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  type SpanOptions,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Tracer,
} from "@opentelemetry/api";
import { parseTraceParent, W3CTraceContextPropagator } from "@opentelemetry/core";
import type { JsonObject } from "../eventstore/port.ts";

const w3c = new W3CTraceContextPropagator();

/** The most links one span carries (the SDK's default limit): a projection batch may apply 500 payments' events. */
const MAX_LINKS = 128;

/**
 * Runs `work` in a span, a child of the active one, and ends it when the work settles; a thrown
 * error marks it failed with the error's name only: messages may quote what a caller sent.
 */
export function inSpan<T>(tracer: Tracer, name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      const kind = error instanceof Error ? error.name : typeof error;
      span.setStatus({ code: SpanStatusCode.ERROR, message: kind });
      span.setAttribute("error.type", kind);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * What events record of the trace that appended them, so that the work they cause later links
 * back: the W3C `traceparent` of the active span, when it is sampled (a link to a trace nobody
 * kept leads nowhere). Nothing when tracing is off.
 */
export function traceMetadata(): { traceparent?: string } {
  const spanContext = sampledSpanContext();
  return spanContext ? { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-01` } : {};
}

/**
 * `trace_id` and `span_id` of the active span when it is sampled, for the exemplar of a latency
 * observed within it: an exemplar of a trace nobody kept leads nowhere.
 */
export function sampledSpanIds(): { trace_id: string; span_id: string } | undefined {
  const spanContext = sampledSpanContext();
  return spanContext && { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

function sampledSpanContext(): SpanContext | undefined {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext) || (spanContext.traceFlags & TraceFlags.SAMPLED) === 0) return undefined;
  return spanContext;
}

/** Links to the traces these event metadata recorded (`traceMetadata`), each once, at most 128. */
export function linksToRecorded(metadata: Iterable<JsonObject | null | undefined>): Link[] {
  const seen = new Set<string>();
  const links: Link[] = [];
  for (const recorded of metadata) {
    const traceparent = recorded?.traceparent;
    if (typeof traceparent !== "string" || seen.has(traceparent)) continue;
    seen.add(traceparent);
    const linked = parseTraceParent(traceparent);
    if (linked) links.push({ context: linked });
    if (links.length === MAX_LINKS) break;
  }
  return links;
}

/** A link to the trace of this `traceparent`, when it is one. */
export function linkTo(traceparent: string | null | undefined): Link[] {
  return linksToRecorded([traceparent ? { traceparent } : undefined]);
}

/** `headers` with the active span's `traceparent` (and `tracestate`) added: sent to processors and webhook endpoints. */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  const carrier = { ...headers };
  w3c.inject(context.active(), carrier, { set: (target, key, value) => (target[key] = value) });
  return carrier;
}

/** The caller's trace context, from its `traceparent` and `tracestate` headers; the root when it sent none (or a malformed one). */
export function callerTraceContext(headers: IncomingHttpHeaders): Context {
  return w3c.extract(ROOT_CONTEXT, headers, {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
  });
}

/** `trace_id` and `span_id` of the active span, for every log line written within it. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
