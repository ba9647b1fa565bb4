import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { Config } from "../../src/config.ts";
import type { Json } from "./service.ts";

/** What the receiver does with a request: answer with that status, or never answer at all. */
export type Answer = number | "never";

/**
 * How the receiver answers:
 * - a status (or "never") for every request;
 * - a sequence, applied per message: the n-th request carrying one `webhook-id` gets the n-th
 *   answer, and the last answer repeats (`[500, 200]`: every message fails once, then
 *   succeeds); counted per path, so two endpoints on one receiver count apart;
 * - a function of the request, for anything else.
 */
export type Behaviour = Answer | readonly Answer[] | ((request: ReceivedRequest) => Answer);

export interface ReceivedRequest {
  method: string;
  /** The request's path and query, e.g. "/hooks/a". */
  path: string;
  /** Lower-cased names; a repeated header is joined with ", ". */
  headers: Record<string, string>;
  /** The raw body text, exactly as sent (what a signature covers). */
  body: string;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** 1 for the first request carrying this webhook-id at this path, 2 for the second, and so on. */
  nth: number;
  /** What the receiver answered. */
  answer: Answer;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>; endpoints add a path of their own. */
  url: string;
  port: number;
  /** Every request so far, in arrival order (a copy). */
  readonly requests: ReceivedRequest[];
  /** The requests at `path`, in arrival order. */
  at(path: string): ReceivedRequest[];
  setBehaviour(behaviour: Behaviour): void;
  /** Answers every request held so far ("never") with `status`. */
  answerHeld(status: number): void;
  /**
   * Polls until `predicate` holds for the requests at `path` (every request when `path` is
   * undefined), or throws with what arrived after `timeoutMs`.
   */
  waitFor(
    predicate: (requests: ReceivedRequest[]) => boolean,
    options?: { path?: string; timeoutMs?: number; message?: string },
  ): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** How soon the service's dispatcher retries and looks for due deliveries; what is left out keeps the service's default. */
export type WebhookSchedule = Partial<Pick<Config["webhooks"], "retryBaseMs" | "dispatchIntervalMs">>;

/**
 * The service's environment for delivering webhooks to this machine (a test's receiver on
 * 127.0.0.1, or a closed loopback port): plain http and loopback addresses, which it refuses by
 * default, with `schedule` for a test that cannot wait out the defaults.
 */
export function loopbackWebhookEnvironment(schedule: WebhookSchedule = {}): Record<string, string> {
  return {
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_PRIVATE: "true",
    ...(schedule.retryBaseMs === undefined ? {} : { WEBHOOK_RETRY_BASE_MS: String(schedule.retryBaseMs) }),
    ...(schedule.dispatchIntervalMs === undefined ? {} : { WEBHOOK_DISPATCH_INTERVAL_MS: String(schedule.dispatchIntervalMs) }),
  };
}

/** A real HTTP server on a free loopback port that records every request and answers per `behaviour`. */
export async function startWebhookReceiver(initial: Behaviour = 200): Promise<WebhookReceiver> {
  let behaviour: Behaviour = initial;
  const received: ReceivedRequest[] = [];
  const seen = new Map<string, number>();
  const held = new Set<ServerResponse>();

  const answerFor = (request: ReceivedRequest): Answer => {
    if (typeof behaviour === "function") return behaviour(request);
    if (Array.isArray(behaviour)) {
      const sequence = behaviour as readonly Answer[];
      return sequence[Math.min(request.nth, sequence.length) - 1]!;
    }
    return behaviour as Answer;
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      }
      const path = incoming.url ?? "";
      const id = `${path} ${headers["webhook-id"] ?? ""}`;
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      const request: ReceivedRequest = {
        method: incoming.method ?? "",
        path,
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
        nth,
        answer: 200,
      };
      request.answer = answerFor(request);
      received.push(request);
      if (request.answer === "never") {
        held.add(response);
        response.on("close", () => held.delete(response));
        return;
      }
      response.writeHead(request.answer, { "content-type": "text/plain" });
      response.end(request.answer >= 200 && request.answer < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const at = (path: string) => received.filter((request) => request.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return [...received];
    },
    at,
    setBehaviour(next) {
      behaviour = next;
    },
    answerHeld(status) {
      for (const response of held) response.writeHead(status).end();
      held.clear();
    },
    async waitFor(predicate, { path, timeoutMs = 15_000, message } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const requests = path === undefined ? [...received] : at(path);
        if (predicate(requests)) return requests;
        if (Date.now() > deadline) {
          const summary = requests.map((request) => `${request.path} ${request.headers["webhook-id"]} ${request.body.slice(0, 120)}`);
          throw new Error(`${message ?? "the expected webhooks did not arrive"} within ${timeoutMs} ms; received:\n${summary.join("\n")}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The parsed body of `request`, verified by the independent standardwebhooks library with `secret` (throws when invalid). */
export function verified(request: ReceivedRequest, secret: string): Json {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** The `type` of a received webhook body (undefined when the body is not JSON). */
export function typeOf(request: ReceivedRequest): string | undefined {
  try {
    return (JSON.parse(request.body) as { type?: string }).type;
  } catch {
    return undefined;
  }
}

/** The body's `data.transaction.id`, or `data.settlement.id`. */
export function subjectOf(request: ReceivedRequest): string | undefined {
  try {
    const { data } = JSON.parse(request.body) as { data?: { transaction?: { id?: string }; settlement?: { id?: string } } };
    return data?.transaction?.id ?? data?.settlement?.id;
  } catch {
    return undefined;
  }
}
