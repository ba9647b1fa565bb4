/**
 * The webhooks bench's receiver, in a process of its own (started by `webhook-receiver-client.ts`):
 * answers 200 with no body as soon as a request's body has arrived, then counts it per path (each
 * endpoint has its own) and verifies the first signatures of each endpoint and a sample after
 * that with the Standard Webhooks library, off the request's path.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { type ApprovedArrivals, clock, type FromReceiver, type PathStats, type ToReceiver } from "./webhook-receiver-client.ts";

/** Signatures checked: the first ones of each endpoint, then one in this many. */
const VERIFY_FIRST = 100;
const VERIFY_EVERY = 50;

interface Signed {
  body: string;
  headers: Record<string, string>;
}

interface PathState {
  requests: number;
  /** When each request arrived, in order. */
  arrivals: number[];
  timesById: Map<string, number>;
  pendingAt: Map<string, number>;
  approvedAt: Map<string, [number, number]>;
  lastArrival: number;
  malformed: number;
  verifier: Webhook | undefined;
  /** Samples that came before the secret did. */
  unverified: Signed[];
  signaturesChecked: number;
  signaturesValid: number;
  signatureError: string | null;
}

const headerOf = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
};

function verify(state: PathState, verifier: Webhook, signed: Signed): void {
  state.signaturesChecked += 1;
  try {
    verifier.verify(signed.body, signed.headers);
    state.signaturesValid += 1;
  } catch (error) {
    state.signatureError ??= error instanceof Error ? error.message : String(error);
  }
}

function record(state: PathState, headers: IncomingHttpHeaders, body: string, at: number): void {
  state.requests += 1;
  state.arrivals.push(at);
  state.lastArrival = at;
  const webhookId = headerOf(headers, "webhook-id");
  state.timesById.set(webhookId, (state.timesById.get(webhookId) ?? 0) + 1);
  if (state.requests <= VERIFY_FIRST || state.requests % VERIFY_EVERY === 0) {
    const signed: Signed = {
      body,
      headers: {
        "webhook-id": webhookId,
        "webhook-timestamp": headerOf(headers, "webhook-timestamp"),
        "webhook-signature": headerOf(headers, "webhook-signature"),
      },
    };
    if (state.verifier) verify(state, state.verifier, signed);
    else if (state.unverified.length < 1_000) state.unverified.push(signed);
  }
  let message: { id?: unknown; type?: unknown; createdAt?: unknown; data?: { transaction?: { id?: unknown } } };
  try {
    message = JSON.parse(body) as typeof message;
  } catch {
    state.malformed += 1;
    return;
  }
  if (message.id !== webhookId) state.malformed += 1;
  const transactionId = message.data?.transaction?.id;
  if (typeof transactionId !== "string") return;
  if (message.type === "transaction.pending" && !state.pendingAt.has(transactionId)) state.pendingAt.set(transactionId, at);
  if (message.type === "transaction.approved" && !state.approvedAt.has(transactionId)) {
    state.approvedAt.set(transactionId, [at, Date.parse(String(message.createdAt))]);
  }
}

function statsOf(state: PathState): PathStats {
  let approvedBeforePending = 0;
  let approvedWithoutPending = 0;
  for (const [transactionId, [approvedAt]] of state.approvedAt) {
    const pendingAt = state.pendingAt.get(transactionId);
    if (pendingAt === undefined) approvedWithoutPending += 1;
    else if (pendingAt > approvedAt) approvedBeforePending += 1;
  }
  return {
    requests: state.requests,
    distinctIds: state.timesById.size,
    duplicates: state.requests - state.timesById.size,
    lastArrival: state.lastArrival,
    malformed: state.malformed,
    signaturesChecked: state.signaturesChecked,
    signaturesValid: state.signaturesValid,
    signatureError: state.signatureError,
    approvedBeforePending,
    approvedWithoutPending,
  };
}

async function runReceiver(): Promise<void> {
  const paths = new Map<string, PathState>();
  const stateOf = (path: string): PathState => {
    let state = paths.get(path);
    if (!state) {
      state = {
        requests: 0,
        arrivals: [],
        timesById: new Map(),
        pendingAt: new Map(),
        approvedAt: new Map(),
        lastArrival: 0,
        malformed: 0,
        verifier: undefined,
        unverified: [],
        signaturesChecked: 0,
        signaturesValid: 0,
        signatureError: null,
      };
      paths.set(path, state);
    }
    return state;
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = clock();
      response.writeHead(200, { "content-length": "0" }).end();
      record(stateOf(request.url ?? "/"), request.headers, Buffer.concat(chunks).toString("utf8"), at);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const send = (message: FromReceiver) => process.send?.(message);
  process.on("message", (message: ToReceiver) => {
    const state = stateOf(message.path);
    if (message.kind === "secret") {
      const verifier = new Webhook(message.secret);
      state.verifier = verifier;
      for (const signed of state.unverified.splice(0)) verify(state, verifier, signed);
    } else if (message.kind === "stats") {
      send({ kind: "answer", id: message.id, value: statsOf(state) });
    } else if (message.kind === "approved") {
      send({ kind: "answer", id: message.id, value: Object.fromEntries(state.approvedAt) satisfies ApprovedArrivals });
    } else {
      send({ kind: "answer", id: message.id, value: message.requests.map((n) => state.arrivals[n - 1] ?? null) });
    }
  });
  // Goes with the bench.
  process.on("disconnect", () => process.exit(0));
  send({ kind: "ready", port: (server.address() as AddressInfo).port });
}

await runReceiver();
