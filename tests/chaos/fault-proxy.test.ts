import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../bench/chaos/fault-proxy.ts";

interface Upstream {
  port: number;
  /** Sockets the upstream holds open. */
  openSockets: Set<net.Socket>;
  close(): Promise<void>;
}

/** A TCP server that sends back whatever it receives. */
async function startEchoServer(): Promise<Upstream> {
  const openSockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    openSockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => openSockets.delete(socket));
    socket.pipe(socket);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as net.AddressInfo).port,
    openSockets,
    async close() {
      for (const socket of openSockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

interface HttpUpstream {
  port: number;
  requests: number;
  /** The bodies of the requests received whole, the only ones a server acts on. */
  bodies: string[];
  close(): Promise<void>;
}

async function startHttpServer(): Promise<HttpUpstream> {
  const upstream: HttpUpstream = { port: 0, requests: 0, bodies: [], close: () => Promise.resolve() };
  const server = http.createServer((request, response) => {
    upstream.requests++;
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      upstream.bodies.push(body);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ ok: true }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  upstream.port = (server.address() as net.AddressInfo).port;
  upstream.close = async () => {
    server.closeAllConnections();
    server.close();
    await once(server, "close");
  };
  return upstream;
}

interface Client {
  socket: net.Socket;
  received(): Buffer;
  /** Resolves on close with the socket's error, if any. */
  closed: Promise<NodeJS.ErrnoException | undefined>;
}

async function openClient(port: number): Promise<Client> {
  const socket = net.connect({ host: "127.0.0.1", port });
  const chunks: Buffer[] = [];
  let error: NodeJS.ErrnoException | undefined;
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", (socketError) => (error = socketError));
  // Not once(socket, "close"): that rejects on the socket's error event.
  const closed = new Promise<NodeJS.ErrnoException | undefined>((resolve) => socket.on("close", () => resolve(error)));
  await once(socket, "connect");
  return { socket, received: () => Buffer.concat(chunks), closed };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

const receivedText = (client: Client) => client.received().toString();

/** A POST on a connection of its own; its status, or the error that ended it. */
async function post(port: number, body: string): Promise<number | NodeJS.ErrnoException> {
  const request = http.request({ host: "127.0.0.1", port, path: "/transactions", method: "POST", agent: false, headers: { "content-type": "application/json" } });
  request.end(body);
  return once(request, "response").then(
    ([response]: http.IncomingMessage[]) => {
      response!.resume();
      return response!.statusCode!;
    },
    (error: NodeJS.ErrnoException) => error,
  );
}

async function get(port: number): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const request = http.get({ host: "127.0.0.1", port, path: "/", agent: false });
  const [response] = (await once(request, "response")) as [http.IncomingMessage];
  let body = "";
  for await (const chunk of response) body += String(chunk);
  return { status: response.statusCode!, headers: response.headers, body };
}

describe("fault proxy", () => {
  let echo: Upstream;
  let web: HttpUpstream;
  const proxies: FaultProxy[] = [];

  beforeAll(async () => {
    echo = await startEchoServer();
    web = await startHttpServer();
  });
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });
  afterAll(async () => {
    await echo?.close();
    await web?.close();
  });

  async function proxyTo(port: number) {
    const proxy = await startFaultProxy({ target: { host: "127.0.0.1", port } });
    proxies.push(proxy);
    return proxy;
  }

  it("passes data both ways untouched, HTTP included", async () => {
    const proxy = await proxyTo(echo.port);
    expect(proxy.host).toBe("127.0.0.1");
    expect(proxy.mode()).toEqual({ kind: "pass" });
    const client = await openClient(proxy.port);
    client.socket.write("hello");
    await waitFor(() => receivedText(client) === "hello", "the echo");

    const webProxy = await proxyTo(web.port);
    const response = await get(webProxy.port);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ ok: true });
    expect(proxy.stats()).toMatchObject({ connections: 1, open: 1, resets: 0, httpErrors: 0, dropped: 0 });
  });

  it("carries megabytes intact, under backpressure", async () => {
    const proxy = await proxyTo(echo.port);
    const client = await openClient(proxy.port);
    const payload = Buffer.alloc(8 * 1024 * 1024, "0123456789abcdef");
    client.socket.write(payload);
    await waitFor(() => client.received().length >= payload.length, "the echoed payload");
    expect(client.received().equals(payload)).toBe(true);
  });

  it("delays every chunk in each direction by the latency, in order", async () => {
    const proxy = await proxyTo(echo.port);
    proxy.setMode({ kind: "latency", ms: 200 });
    const client = await openClient(proxy.port);
    const started = performance.now();
    client.socket.write("ping");
    await waitFor(() => receivedText(client) === "ping", "the delayed echo");
    // Once on the way in, once on the way back.
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);

    for (const part of ["a", "b", "c"]) {
      client.socket.write(part);
      await sleep(20);
    }
    await waitFor(() => receivedText(client) === "pingabc", "the echoed parts");
  });

  it("holds existing and new connections silent, then flushes in order on pass", async () => {
    const proxy = await proxyTo(echo.port);
    const existing = await openClient(proxy.port);
    existing.socket.write("before.");
    await waitFor(() => receivedText(existing) === "before.", "the echo before the hold");

    proxy.setMode({ kind: "hold" });
    const fresh = await openClient(proxy.port);
    for (const part of ["1", "2", "3"]) {
      existing.socket.write(part);
      fresh.socket.write(part);
      await sleep(20);
    }
    await sleep(300);
    expect(receivedText(existing)).toBe("before.");
    expect(receivedText(fresh)).toBe("");
    expect(proxy.stats().open).toBe(2);

    proxy.setMode({ kind: "pass" });
    await waitFor(() => receivedText(existing) === "before.123", "the held data on the existing connection");
    await waitFor(() => receivedText(fresh) === "123", "the held data on the new connection");
  });

  it("holds more than its buffer, then delivers all of it in order", async () => {
    const proxy = await proxyTo(echo.port);
    proxy.setMode({ kind: "hold" });
    const client = await openClient(proxy.port);
    const payload = Buffer.from(Array.from({ length: 300_000 }, (_, index) => `${index},`).join(""));
    client.socket.write(payload);
    await sleep(300);
    expect(client.received().length).toBe(0);

    proxy.setMode({ kind: "pass" });
    await waitFor(() => client.received().length >= payload.length, "the held payload");
    expect(client.received().equals(payload)).toBe(true);
  });

  it("discards what arrives in blackhole mode and keeps the connection open", async () => {
    const proxy = await proxyTo(echo.port);
    const client = await openClient(proxy.port);
    proxy.setMode({ kind: "blackhole" });
    client.socket.write("lost");
    await sleep(300);
    expect(receivedText(client)).toBe("");
    expect(client.socket.destroyed).toBe(false);

    proxy.setMode({ kind: "pass" });
    client.socket.write("kept");
    await waitFor(() => receivedText(client).length >= 4, "the echo after the blackhole");
    await sleep(50);
    expect(receivedText(client)).toBe("kept");
  });

  it("resets the client when the upstream answers, in reset_responses mode", async () => {
    const proxy = await proxyTo(web.port);
    proxy.setMode({ kind: "reset_responses" });
    const requestsBefore = web.requests;
    const error = await get(proxy.port).then(
      () => undefined,
      (requestError: NodeJS.ErrnoException) => requestError,
    );
    expect(error?.code === "ECONNRESET" || error?.message === "socket hang up").toBe(true);
    expect(web.requests).toBe(requestsBefore + 1);
    expect(proxy.stats().resets).toBe(1);
  });

  it("answers a canned HTTP error without contacting upstream, in http_error mode", async () => {
    const proxy = await proxyTo(web.port);
    proxy.setMode({ kind: "http_error", status: 503 });
    const requestsBefore = web.requests;
    const response = await get(proxy.port);
    expect(response.status).toBe(503);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body)).toEqual({ error: "injected" });
    expect(web.requests).toBe(requestsBefore);
    expect(proxy.stats().httpErrors).toBe(1);
    await waitFor(() => proxy.stats().open === 0, "the answered connection to close");
  });

  it("resets the connection instead of forwarding data that matches, in drop_requests mode", async () => {
    const proxy = await proxyTo(web.port);
    proxy.setMode({ kind: "drop_requests", matching: /"REVERSAL"/ });
    const bodiesBefore = web.bodies.length;
    expect(await post(proxy.port, JSON.stringify({ transactionType: "SALE" }))).toBe(200);
    const dropped = await post(proxy.port, JSON.stringify({ transactionType: "REVERSAL" }));
    expect(dropped).toBeInstanceOf(Error);
    expect((dropped as NodeJS.ErrnoException).code === "ECONNRESET" || (dropped as Error).message === "socket hang up").toBe(true);
    expect(proxy.stats().dropped).toBe(1);
    await waitFor(() => proxy.stats().open === 0, "the dropped connection to close");
    // A request whose head went ahead is cut short: the upstream never receives it whole.
    expect(web.bodies.slice(bodiesBefore)).toEqual([JSON.stringify({ transactionType: "SALE" })]);
    proxy.setMode({ kind: "pass" });
    expect(await post(proxy.port, JSON.stringify({ transactionType: "REVERSAL" }))).toBe(200);
    expect(web.bodies.slice(bodiesBefore)).toHaveLength(2);
  });

  it("resets every open connection on both sides with resetAll", async () => {
    const proxy = await proxyTo(echo.port);
    const upstreamSocketsBefore = echo.openSockets.size;
    const clients = [await openClient(proxy.port), await openClient(proxy.port)];
    for (const client of clients) client.socket.write("x");
    await waitFor(() => clients.every((client) => receivedText(client) === "x"), "the echoes");
    expect(echo.openSockets.size).toBe(upstreamSocketsBefore + 2);

    proxy.resetAll();
    for (const client of clients) expect((await client.closed)?.code).toBe("ECONNRESET");
    await waitFor(() => echo.openSockets.size === upstreamSocketsBefore, "the upstream sockets to close");
    await waitFor(() => proxy.stats().open === 0, "the proxy to forget the connections");
    expect(proxy.stats().resets).toBe(2);
  });

  it("closes the client when the upstream refuses", async () => {
    const refusing = await startEchoServer();
    await refusing.close();
    const proxy = await proxyTo(refusing.port);
    const client = await openClient(proxy.port);
    await client.closed;
    expect(receivedText(client)).toBe("");
    await waitFor(() => proxy.stats().open === 0, "the proxy to forget the connection");
  });

  it("leaves nothing open once closed", async () => {
    const proxy = await proxyTo(echo.port);
    const upstreamSocketsBefore = echo.openSockets.size;
    const clients = [await openClient(proxy.port), await openClient(proxy.port)];
    proxy.setMode({ kind: "hold" });
    clients[0]!.socket.write("held");

    await proxy.close();
    await Promise.all(clients.map((client) => client.closed));
    expect(proxy.stats().open).toBe(0);
    await waitFor(() => echo.openSockets.size === upstreamSocketsBefore, "the upstream sockets to close");
    const refused = net.connect({ host: "127.0.0.1", port: proxy.port });
    const [error] = (await once(refused, "error")) as [NodeJS.ErrnoException];
    expect(error.code).toBe("ECONNREFUSED");
  });
});
