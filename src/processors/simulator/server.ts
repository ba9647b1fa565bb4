import { setTimeout as delay } from "node:timers/promises";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { ReceivedMessage, SimulatorContext } from "./context.ts";
import { type LatencyDraw, latencyModel, type SimulatorLatency } from "./latency.ts";
import { openLedger, type SimulatedTransaction, type TransactionFilter } from "./ledger.ts";
import { registerProcessorA } from "./processor-a.ts";
import { registerProcessorB } from "./processor-b.ts";
import { registerProcessorC } from "./processor-c.ts";
import { registerProcessorD } from "./processor-d.ts";
import { registerTransactionList } from "./transactions-route.ts";

export interface SimulatorOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** How long the timeout card's answer is held back; longer than any connector waits. */
  timeoutCardDelayMs?: number;
  /** Where the simulator keeps what it answered, across restarts; `memory://` or none: in memory. */
  dataDir?: string;
  /** How long operations take, and how often they time out or fail; unset: answered at once. */
  latency?: SimulatorLatency | undefined;
}

export interface Simulator {
  url: string;
  baseUrls: Record<Processor, string>;
  /** For tests: the last operation message received for our transaction id, card data and secrets redacted. */
  received(transactionId: string): ReceivedMessage | undefined;
  /** What it answered, oldest first (also `GET /simulator/transactions`). */
  transactions(filter?: TransactionFilter): SimulatedTransaction[];
  close(): Promise<void>;
}

/** All four simulated processors on one HTTP server, each under its own path prefix. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const { host = "127.0.0.1", port = 0, timeoutCardDelayMs = 30_000, dataDir, latency } = options;
  const closing = new AbortController();
  const received = new Map<string, ReceivedMessage>();
  const ledger = await openLedger(dataDir);
  const context: SimulatorContext = {
    ledger,
    hold: () => delay(timeoutCardDelayMs, undefined, { signal: closing.signal }).catch(() => undefined),
    record: (transactionId, message) => received.set(transactionId, message),
  };

  // No logger: messages carry card numbers.
  const app = Fastify({ logger: false });
  // Fastify's default error answers can quote the body (JSON syntax errors do).
  app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return reply.code(status).send({ error: status === 500 ? "internal_error" : "bad_request" });
  });
  if (latency) registerLatency(app, latencyModel(latency), context.hold, closing.signal);
  registerProcessorA(app, context);
  registerProcessorB(app, context);
  registerProcessorC(app, context);
  registerProcessorD(app, context);
  registerTransactionList(app, ledger);

  try {
    await app.listen({ host, port });
  } catch (error) {
    await ledger.close();
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("The simulator is not listening on TCP.");
  // A wildcard address is where to listen, not where to connect.
  const reachable = address.address === "0.0.0.0" || address.address === "::" ? "127.0.0.1" : address.address;
  const url = `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${address.port}`;

  return {
    url,
    baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url },
    received: (transactionId) => {
      const message = received.get(transactionId);
      return message && structuredClone(message);
    },
    transactions: (filter) => ledger.transactions(filter),
    async close() {
      // Held answers go out at once, so closing does not wait for them.
      closing.abort();
      await app.close();
      await ledger.close();
    },
  };
}

/**
 * Every processor operation (not `/simulator/...`) is delayed by the model: an error is answered
 * 503 before the processor does anything; an answer or a timeout is held back after the operation
 * is done, so a timed-out operation happened all the same, as a slow processor's does.
 */
function registerLatency(app: FastifyInstance, draw: () => LatencyDraw, hold: () => Promise<void>, closing: AbortSignal): void {
  const draws = new WeakMap<FastifyRequest, LatencyDraw>();
  const isOperation = (request: FastifyRequest) => !request.url.startsWith("/simulator/");
  app.addHook("onRequest", async (request, reply) => {
    if (!isOperation(request)) return;
    const drawn = draw();
    if (drawn.kind === "error") return reply.code(503).send({ error: "service_unavailable" });
    draws.set(request, drawn);
  });
  app.addHook("onSend", async (request) => {
    const drawn = draws.get(request);
    if (drawn?.kind === "timeout") await hold();
    else if (drawn?.kind === "answer") await delay(drawn.delayMs, undefined, { signal: closing }).catch(() => undefined);
  });
}
