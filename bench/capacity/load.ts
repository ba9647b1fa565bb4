/**
 * Open-model load: arrivals at a fixed rate with Poisson gaps (exponential, independent), each
 * sent when due whatever is still in flight, so a slow service shows as queueing and latency
 * instead of a lower arrival rate. Latency counts from the arrival's due time, so the generator's
 * own lateness cannot hide any.
 */
import { Agent, request } from "undici";

export interface Operation {
  kind: string;
  method: "GET" | "POST";
  path: string;
  body?: object | undefined;
  /** Told the answer, e.g. to keep a transaction for later follow-ups. */
  answered?: (status: number, body: unknown) => void;
}

export interface Sample {
  kind: string;
  /** 0: no answer (a connection error or the client's timeout). */
  status: number;
  /** The problem's `code` of a 4xx or 5xx answer. */
  code: string | undefined;
  /** From the arrival's due time to the whole answer. */
  endToEndMs: number;
  /** What `server-timing` says the request waited on its processor; 0 when absent. */
  processorMs: number;
}

export interface LoadResult {
  samples: Sample[];
  /** How late the generator sent an arrival, at worst. */
  maxLatenessMs: number;
}

/** Unlimited connections: an open model never holds an arrival back for a free one. */
const agent = new Agent({ keepAliveTimeout: 60_000, headersTimeout: 60_000, bodyTimeout: 60_000 });

const processorTime = (header: string | string[] | undefined) => {
  const match = /processor;dur=([\d.]+)/.exec(Array.isArray(header) ? header.join(",") : (header ?? ""));
  return match ? Number(match[1]) : 0;
};

async function send(baseUrl: string, headers: Record<string, string>, operation: Operation, dueAt: number): Promise<Sample> {
  try {
    const response = await request(`${baseUrl}${operation.path}`, {
      method: operation.method,
      dispatcher: agent,
      headers: { ...headers, ...(operation.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(operation.body === undefined ? {} : { body: JSON.stringify(operation.body) }),
    });
    const text = await response.body.text();
    const endToEndMs = performance.now() - dueAt;
    const body: unknown = text ? JSON.parse(text) : undefined;
    operation.answered?.(response.statusCode, body);
    const code = response.statusCode >= 400 && typeof body === "object" && body !== null && "code" in body ? String(body.code) : undefined;
    return { kind: operation.kind, status: response.statusCode, code, endToEndMs, processorMs: processorTime(response.headers["server-timing"]) };
  } catch {
    return { kind: operation.kind, status: 0, code: undefined, endToEndMs: performance.now() - dueAt, processorMs: 0 };
  }
}

/**
 * Sends `next()` at `rate` a second for `seconds`, then waits for every answer. With several
 * `baseUrls` (instances of the service) the arrivals go to each in turn, as a round-robin load
 * balancer sends them.
 */
export async function runOpenLoad(options: {
  baseUrls: readonly string[];
  headers: Record<string, string>;
  rate: number;
  seconds: number;
  next: () => Operation;
}): Promise<LoadResult> {
  const { baseUrls, headers, rate, seconds, next } = options;
  const startedAt = performance.now();
  const endsAt = startedAt + seconds * 1000;
  const inFlight: Promise<Sample>[] = [];
  let dueAt = startedAt;
  let maxLatenessMs = 0;
  for (;;) {
    dueAt += (-Math.log(1 - Math.random()) / rate) * 1000;
    if (dueAt >= endsAt) break;
    const wait = dueAt - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    maxLatenessMs = Math.max(maxLatenessMs, performance.now() - dueAt);
    inFlight.push(send(baseUrls[inFlight.length % baseUrls.length]!, headers, next(), dueAt));
  }
  return { samples: await Promise.all(inFlight), maxLatenessMs };
}
