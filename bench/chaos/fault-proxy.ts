import { STATUS_CODES } from "node:http";
import net from "node:net";
import { performance } from "node:perf_hooks";

export type FaultMode =
  | { kind: "pass" } // forward both ways untouched
  | { kind: "latency"; ms: number } // forward, but every chunk in either direction is delayed by ms (order preserved per direction)
  | { kind: "hold" } // forward nothing either way; what arrives is buffered and flows, in order, once the mode is no longer hold/blackhole
  | { kind: "blackhole" } // like hold, but data that arrives meanwhile is discarded for ever (connections stay open and silent)
  | { kind: "reset_responses" } // forward client->upstream; the upstream's first byte back resets the client's socket instead
  | { kind: "http_error"; status: number } // answer a connection's client data with a canned HTTP error, without contacting upstream
  | { kind: "drop_requests"; matching: RegExp }; // forward, except that client data matching the pattern resets the connection on both sides instead of reaching upstream

export interface FaultProxyStats {
  /** Connections accepted so far. */
  connections: number;
  /** Connections with a socket still open on either side. */
  open: number;
  /** Connections this proxy reset (resetAll and reset_responses). */
  resets: number;
  /** Canned HTTP error answers sent. */
  httpErrors: number;
  /** Connections reset in drop_requests mode, their matching data never forwarded. */
  dropped: number;
}

export interface FaultProxy {
  host: string;
  port: number;
  mode(): FaultMode;
  /** Applies to existing connections as well as new ones. */
  setMode(mode: FaultMode): void;
  /** Resets (RST) every open connection on both sides, whatever the mode. */
  resetAll(): void;
  stats(): FaultProxyStats;
  /** Stops listening and destroys every connection; resolves once every client side is closed. */
  close(): Promise<void>;
}

/**
 * A TCP proxy to `target` whose fault mode can change at any time, for new and existing
 * connections alike.
 *
 * Each connection has two lanes (client->upstream, upstream->client) that queue what their source
 * sends: data, its end (FIN) or its abort (closed without FIN, passed on as a plain destroy). A
 * lane delivers its queue in order whenever the mode lets it. Only data is ever discarded
 * (blackhole): a peer's end or abort is held like data, so a connection whose client went away
 * during a hold or blackhole ends once forwarding resumes. A refused upstream is such an abort.
 *
 * The upstream connection is opened as soon as the client connects, in every mode but http_error
 * (hold and blackhole included: the upstream is connected at once but sees nothing). In
 * http_error mode, client data on any connection (existing ones too) gets the canned answer, the
 * connection's upstream is closed, and what the client sends afterwards is dropped; a connection
 * accepted in that mode opens its upstream only if the mode changes before its first data.
 *
 * drop_requests judges each chunk of client data as it is about to be forwarded: one that matches
 * resets both sides instead, so the upstream never gets it (an HTTP request whose head went ahead
 * is cut short, which a server never acts on) and the client cannot tell this from an answer lost.
 */
export async function startFaultProxy(options: {
  target: { host: string; port: number };
  host?: string;
  port?: number;
}): Promise<FaultProxy> {
  let currentMode: FaultMode = { kind: "pass" };
  const counters: Counters = { connections: 0, resets: 0, httpErrors: 0, dropped: 0 };
  const connections = new Set<ProxiedConnection>();
  const proxy: ProxyState = { target: options.target, mode: () => currentMode, counters };

  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    counters.connections++;
    const connection = new ProxiedConnection(client, proxy);
    connections.add(connection);
    void connection.closed.then(() => connections.delete(connection));
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // An accept error (EMFILE) must not crash the harness; the server keeps listening.
  server.on("error", () => {});

  return {
    host,
    port: (server.address() as net.AddressInfo).port,
    mode: () => currentMode,
    setMode(mode) {
      validate(mode);
      currentMode = mode;
      for (const connection of connections) connection.applyMode();
    },
    resetAll() {
      for (const connection of connections) {
        counters.resets++;
        connection.reset();
      }
    },
    stats: () => ({ ...counters, open: connections.size }),
    async close() {
      // The server closes once every accepted socket has: that is the proxy closed.
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.destroy();
      await closing;
    },
  };
}

function validate(mode: FaultMode) {
  if (mode.kind === "latency" && !(Number.isFinite(mode.ms) && mode.ms >= 0)) {
    throw new Error(`latency must be a non-negative number of milliseconds, not ${mode.ms}`);
  }
  if (mode.kind === "http_error" && !(Number.isInteger(mode.status) && mode.status >= 100 && mode.status <= 599)) {
    throw new Error(`http_error needs an HTTP status code, not ${mode.status}`);
  }
}

interface Counters {
  connections: number;
  resets: number;
  httpErrors: number;
  dropped: number;
}

interface ProxyState {
  target: { host: string; port: number };
  mode(): FaultMode;
  counters: Counters;
}

type LaneItem = { arrivedAt: number } & ({ kind: "data"; chunk: Buffer } | { kind: "end" } | { kind: "abort" });

interface Lane {
  items: LaneItem[];
  /**
   * Bytes of data queued; past HIGH_WATER_BYTES the source is paused, so what it sends next waits
   * in the kernel's buffers (and a blackhole that follows a long hold does not discard that).
   */
  bytes: number;
  sourcePaused: boolean;
  /** Set while a latency delay is pending for the head item. */
  timer: NodeJS.Timeout | undefined;
  /** Set while the destination's write buffer is full. */
  waitingForDrain: boolean;
}

const HIGH_WATER_BYTES = 1024 * 1024;

class ProxiedConnection {
  readonly closed: Promise<void>;
  private resolveClosed!: () => void;
  private upstream: net.Socket | undefined;
  private clientClosed = false;
  private upstreamClosed = false;
  /** Set once the proxy itself ended the connection (reset, canned answer, close): lanes stop. */
  private finished = false;
  private readonly toUpstream: Lane = newLane();
  private readonly toClient: Lane = newLane();

  constructor(
    private readonly client: net.Socket,
    private readonly proxy: ProxyState,
  ) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    client.on("error", () => {}); // its close event carries the consequence
    this.listen(client, this.toUpstream, () => (this.clientClosed = true));
    if (proxy.mode().kind !== "http_error") this.connectUpstream();
  }

  applyMode() {
    if (this.proxy.mode().kind !== "http_error") this.connectUpstream();
    for (const lane of [this.toUpstream, this.toClient]) {
      clearTimeout(lane.timer);
      lane.timer = undefined;
      this.flush(lane);
    }
  }

  reset() {
    this.finish();
    for (const socket of [this.client, this.upstream]) {
      if (socket && !socket.destroyed) socket.resetAndDestroy();
    }
  }

  destroy() {
    this.finish();
    this.client.destroy();
    this.upstream?.destroy();
  }

  private connectUpstream() {
    if (this.upstream || this.finished || this.client.destroyed) return;
    const upstream = net.connect({ ...this.proxy.target, allowHalfOpen: true, noDelay: true });
    this.upstream = upstream;
    // A refused or failed upstream closes without FIN: the lane passes that on as an abort.
    upstream.on("error", () => {});
    this.listen(upstream, this.toClient, () => (this.upstreamClosed = true));
  }

  private listen(source: net.Socket, lane: Lane, markClosed: () => void) {
    let ended = false;
    source.on("data", (chunk: Buffer) => this.arrive(lane, source, { kind: "data", chunk }));
    source.on("end", () => {
      ended = true;
      this.arrive(lane, source, { kind: "end" });
    });
    source.on("close", () => {
      if (!ended) this.arrive(lane, source, { kind: "abort" });
      markClosed();
      this.settleIfClosed();
    });
  }

  private arrive(lane: Lane, source: net.Socket, item: { kind: "data"; chunk: Buffer } | { kind: "end" } | { kind: "abort" }) {
    if (this.finished) return;
    if (item.kind === "data" && this.proxy.mode().kind === "blackhole") return;
    lane.items.push({ ...item, arrivedAt: performance.now() });
    if (item.kind === "data") {
      lane.bytes += item.chunk.length;
      if (lane.bytes >= HIGH_WATER_BYTES && !lane.sourcePaused) {
        lane.sourcePaused = true;
        source.pause();
      }
    }
    this.flush(lane);
  }

  /** Delivers the lane's queue, in order, as far as the mode and the destination allow. */
  private flush(lane: Lane) {
    while (!this.finished && lane.items.length > 0 && !lane.waitingForDrain) {
      const mode = this.proxy.mode();
      if (mode.kind === "hold" || mode.kind === "blackhole") break;
      const item = lane.items[0]!;
      if (mode.kind === "latency") {
        const wait = item.arrivedAt + mode.ms - performance.now();
        if (wait > 0) {
          lane.timer ??= setTimeout(() => {
            lane.timer = undefined;
            this.flush(lane);
          }, wait);
          break;
        }
      }
      if (item.kind === "data" && lane === this.toClient && mode.kind === "reset_responses") {
        this.proxy.counters.resets++;
        this.reset();
        return;
      }
      if (item.kind === "data" && lane === this.toUpstream && mode.kind === "http_error") {
        this.answerHttpError(mode.status);
        return;
      }
      if (item.kind === "data" && lane === this.toUpstream && mode.kind === "drop_requests" && mode.matching.test(item.chunk.toString("latin1"))) {
        this.proxy.counters.dropped++;
        this.reset();
        return;
      }
      const destination = lane === this.toUpstream ? this.upstream : this.client;
      if (destination?.writableNeedDrain) {
        lane.waitingForDrain = true;
        destination.once("drain", () => {
          lane.waitingForDrain = false;
          this.flush(lane);
        });
        break;
      }
      lane.items.shift();
      if (item.kind === "data") lane.bytes -= item.chunk.length;
      this.deliver(item, destination);
    }
    if (lane.sourcePaused && lane.bytes < HIGH_WATER_BYTES) {
      lane.sourcePaused = false;
      (lane === this.toUpstream ? this.client : this.upstream)?.resume();
    }
  }

  private deliver(item: LaneItem, destination: net.Socket | undefined) {
    // No upstream only happens in http_error mode before any data: the client's end ends it all.
    if (!destination) {
      if (item.kind === "end") this.client.end();
      return;
    }
    if (destination.destroyed) return;
    if (item.kind === "data") destination.write(item.chunk);
    else if (item.kind === "end") destination.end();
    else destination.destroy();
  }

  private answerHttpError(status: number) {
    this.finish();
    this.proxy.counters.httpErrors++;
    this.upstream?.destroy();
    // The client closes on `connection: close`; until then what it sends is read and dropped.
    this.client.resume();
    this.client.end(cannedHttpError(status));
  }

  private finish() {
    this.finished = true;
    for (const lane of [this.toUpstream, this.toClient]) {
      clearTimeout(lane.timer);
      lane.timer = undefined;
      lane.items = [];
      lane.bytes = 0;
    }
  }

  private settleIfClosed() {
    if (!this.clientClosed || (this.upstream && !this.upstreamClosed)) return;
    this.finish();
    this.resolveClosed();
  }
}

function newLane(): Lane {
  return { items: [], bytes: 0, sourcePaused: false, timer: undefined, waitingForDrain: false };
}

function cannedHttpError(status: number): string {
  const body = JSON.stringify({ error: "injected" });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Injected"}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}
