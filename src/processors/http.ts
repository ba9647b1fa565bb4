import { Agent, request } from "undici";
import type { JsonObject } from "../eventstore/port.ts";

/**
 * JSON over HTTP to a processor, classified by what the processor may have seen: nothing
 * (`not_sent`), everything but we have no answer (`no_answer`), or an answer.
 */
export type HttpResult =
  | { kind: "answered"; status: number; body: unknown }
  | { kind: "not_sent"; code: string }
  | { kind: "no_answer"; code: string };

export interface HttpClient {
  post(url: string, body: JsonObject, headers?: Record<string, string>): Promise<HttpResult>;
  get(url: string, headers?: Record<string, string>): Promise<HttpResult>;
  /** Ends the pool's connections, so that no processor waits on a keep-alive socket of ours. */
  close(): Promise<void>;
}

/**
 * Errors raised before a single byte left: the connection was never made, so the processor
 * cannot have acted. Anything else (timeouts, resets) may come after it received the request.
 */
const notSentCodes = new Set([
  // The request was refused before it was made, such as a header value HTTP cannot carry.
  "UND_ERR_INVALID_ARG",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Codes of a call that ran out of time (ours, or one of the pool's own bounds). */
const timeoutCodes = new Set(["TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** How a call ended, as its latency metric names it. */
export type CallOutcome = "answered" | "timeout" | "error";

export const callOutcomeOf = (result: HttpResult): CallOutcome =>
  result.kind === "answered" ? "answered" : timeoutCodes.has(result.code) ? "timeout" : "error";

function errorCode(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (error.name === "TimeoutError" || error.name === "AbortError") return "TIMEOUT";
  }
  return "UNKNOWN";
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One keep-alive pool for all connectors; undici never retries a POST on it. */
export function createHttpClient(options: { timeoutMs: number }): HttpClient {
  const { timeoutMs } = options;
  const dispatcher = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });

  async function send(
    method: "GET" | "POST",
    url: string,
    body: JsonObject | undefined,
    headers: Record<string, string>,
  ): Promise<HttpResult> {
    // One deadline for the whole call. A timer cleared when the call ends, not AbortSignal.timeout:
    // that one costs ~12 µs to make and lives on for the whole timeout after every call.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DOMException("The processor call timed out", "TimeoutError")), timeoutMs);
    try {
      const response = await request(url, {
        method,
        dispatcher,
        signal: deadline.signal,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      return { kind: "answered", status: response.statusCode, body: parseJson(text) };
    } catch (error) {
      const code = errorCode(error);
      return { kind: notSentCodes.has(code) ? "not_sent" : "no_answer", code };
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    post: (url, body, headers = {}) => send("POST", url, body, headers),
    get: (url, headers = {}) => send("GET", url, undefined, headers),
    close: () => dispatcher.destroy(),
  };
}

/** The same client, reporting how long each call took and how it ended. */
export function timedHttpClient(http: HttpClient, observe: (outcome: CallOutcome, seconds: number) => void): HttpClient {
  async function timed(call: () => Promise<HttpResult>): Promise<HttpResult> {
    const startedAt = performance.now();
    const result = await call();
    observe(callOutcomeOf(result), (performance.now() - startedAt) / 1000);
    return result;
  }
  return {
    post: (url, body, headers) => timed(() => http.post(url, body, headers)),
    get: (url, headers) => timed(() => http.get(url, headers)),
    close: () => http.close(),
  };
}
