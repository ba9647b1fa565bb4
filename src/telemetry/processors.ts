import { type Attributes, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import { callOutcomeOf, type HttpClient, type HttpResult } from "../processors/http.ts";
import type { BatchCloseOutcome, Connectors, InquiryOutcome, ProcessorConnector } from "../processors/port.ts";
import { inSpan, withTraceHeaders } from "./spans.ts";

/**
 * Each connector's calls as spans: the operation, the transaction, and what the processor said
 * (its response code; `unknown` when it gave no usable answer, and the HTTP span under it says
 * whether that was a timeout). Never the request: it carries the card and the credentials.
 */
export function tracedConnectors(connectors: Connectors, tracer: Tracer): Connectors {
  const traced = (connector: ProcessorConnector): ProcessorConnector => {
    const span = <T extends InquiryOutcome | BatchCloseOutcome>(operation: string, attributes: Attributes, call: () => Promise<T>) =>
      inSpan(
        tracer,
        `processor ${operation}`,
        { kind: SpanKind.CLIENT, attributes: { "ledger.processor": connector.processor, "ledger.operation": operation, ...attributes } },
        async (active) => {
          const outcome = await call();
          active.setAttributes(outcomeAttributes(outcome));
          if (outcome.kind === "unknown") active.setStatus({ code: SpanStatusCode.ERROR, message: "unknown outcome" });
          return outcome;
        },
      );
    return {
      processor: connector.processor,
      submit: (request) =>
        span(request.operation, { "ledger.transaction_id": request.transactionId, "ledger.amount": request.amount, "ledger.currency": request.currency }, () =>
          connector.submit(request),
        ),
      inquire: (request) => span("inquiry", { "ledger.transaction_id": request.transactionId }, () => connector.inquire(request)),
      closeBatch: (request) =>
        span("close_batch", { "ledger.settlement_id": request.settlementId, "ledger.transactions": request.transactionIds.length }, () =>
          connector.closeBatch(request),
        ),
    };
  };
  return {
    processor_a: traced(connectors.processor_a),
    processor_b: traced(connectors.processor_b),
    processor_c: traced(connectors.processor_c),
    processor_d: traced(connectors.processor_d),
  };
}

function outcomeAttributes(outcome: InquiryOutcome | BatchCloseOutcome): Attributes {
  switch (outcome.kind) {
    case "approved":
      return { "ledger.outcome": outcome.kind, "ledger.response_code": outcome.code };
    case "declined":
      return { "ledger.outcome": outcome.kind, "ledger.response_code": outcome.code, "ledger.decline_code": outcome.declineCode };
    case "failed":
      return { "ledger.outcome": outcome.kind, "ledger.response_code": outcome.code, "ledger.failure_reason": outcome.reason };
    case "not_found":
    case "unknown":
    case "refused":
      return { "ledger.outcome": outcome.kind };
    case "closed":
      return { "ledger.outcome": outcome.kind, "ledger.transactions_closed": outcome.transactionIds.length };
  }
}

/**
 * The processors' HTTP client with a span for each call, whose `traceparent` goes with it. Only
 * the host is recorded: a processor URL may carry credentials in its user part.
 */
export function tracedHttpClient(http: HttpClient, tracer: Tracer): HttpClient {
  const call = (method: "GET" | "POST", url: string, send: (headers: Record<string, string>) => Promise<HttpResult>) => {
    const { hostname, port } = new URL(url);
    return inSpan(
      tracer,
      method,
      { kind: SpanKind.CLIENT, attributes: { "http.request.method": method, "server.address": hostname, ...(port ? { "server.port": Number(port) } : {}) } },
      async (span) => {
        const result = await send(withTraceHeaders({}));
        if (result.kind === "answered") {
          span.setAttribute("http.response.status_code", result.status);
          if (result.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        } else {
          // `not_sent`: the processor cannot have acted; `no_answer`: it may have.
          span.setAttributes({ "error.type": result.code, "ledger.http_result": result.kind, "ledger.timeout": callOutcomeOf(result) === "timeout" });
          span.setStatus({ code: SpanStatusCode.ERROR, message: result.code });
        }
        return result;
      },
    );
  };
  return {
    post: (url, body, headers = {}) => call("POST", url, (trace) => http.post(url, body, { ...headers, ...trace })),
    get: (url, headers = {}) => call("GET", url, (trace) => http.get(url, { ...headers, ...trace })),
    close: () => http.close(),
  };
}
