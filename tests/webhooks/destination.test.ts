import dns, { type LookupAddress } from "node:dns";
import { createSocket } from "node:dgram";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkWebhookUrl, createWebhookSender, type UrlPolicy, type WebhookSender } from "../../src/webhooks/destination.ts";
import { createHostResolver, DnsTimeoutError, dnsQueries, type HostLookup } from "../../src/webhooks/host-resolver.ts";
import { freePort } from "../processors/free-port.ts";

// The real resolver: only localhost (loopback without a query) and IP literals reach it here;
// other names go to lookups the tests inject, so no DNS server is contacted.
const resolveHost = createHostResolver({ timeoutMs: 2000 });
const strict: UrlPolicy = { allowHttp: false, allowPrivate: false, resolveHost };
const permissive: UrlPolicy = { allowHttp: true, allowPrivate: true, resolveHost };

const HTTPS_ONLY = "must use https (WEBHOOK_ALLOW_HTTP=true allows http)";
const LIFTED = "(WEBHOOK_ALLOW_PRIVATE=true allows private, loopback and link-local addresses)";
const IS_PRIVATE = `is a private address ${LIFTED}`;
const RESOLVES_TO_PRIVATE = `resolves to a private address ${LIFTED}`;

/** Answers `addresses` for every name but `silent`, whose lookup never answers; records the signals it was given. */
function injectedLookup(addresses: LookupAddress[], silent = "silent.example") {
  const signals: AbortSignal[] = [];
  const lookup: HostLookup = (hostname, signal) => {
    signals.push(signal);
    return hostname === silent ? new Promise(() => {}) : Promise.resolve(addresses);
  };
  return { lookup, signals };
}

const privateUrls = [
  "https://127.0.0.1/x",
  "https://localhost/x",
  "https://[::1]/x",
  "https://10.1.2.3/x",
  "https://172.16.0.1/x",
  "https://192.168.1.1/x",
  "https://169.254.169.254/latest/meta-data",
  "https://[::ffff:127.0.0.1]/x",
  "https://0.0.0.0/x",
  "https://[fc00::1]/x",
  "https://[fe80::1]/x",
  "https://[::]/x",
  "https://100.64.0.1/x",
  "https://2130706433/x",
  // IPv6 forms that embed or map an IPv4 address, in every spelling, and IPv6's other non-public ranges.
  "https://[::127.0.0.1]/x",
  "https://[::7f00:1]/x",
  "https://[::8.8.8.8]/x",
  "https://[::ffff:7f00:1]/x",
  "https://[0:0:0:0:0:ffff:10.0.0.1]/x",
  "https://[::ffff:0:127.0.0.1]/x",
  "https://[64:ff9b::127.0.0.1]/x",
  "https://[64:ff9b:1::a00:1]/x",
  "https://[2002:7f00:1::]/x",
  "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x",
  "https://[fec0::1]/x",
  "https://[100::1]/x",
  "https://[2001:db8::1]/x",
  "https://[3fff::1]/x",
  "https://[ff02::1]/x",
  "https://[4000::1]/x",
];

describe("checkWebhookUrl", () => {
  it("accepts https to a public IP literal, also IPv4-mapped or IPv6", async () => {
    await expect(checkWebhookUrl("https://93.184.216.34/x", strict)).resolves.toEqual({ ok: true });
    await expect(checkWebhookUrl("https://[::ffff:93.184.216.34]/x", strict)).resolves.toEqual({ ok: true });
    await expect(checkWebhookUrl("https://[2606:4700:4700::1111]/x", strict)).resolves.toEqual({ ok: true });
  });

  it("refuses http unless allowHttp, and other schemes always", async () => {
    await expect(checkWebhookUrl("http://93.184.216.34/x", strict)).resolves.toEqual({ ok: false, reason: HTTPS_ONLY });
    await expect(checkWebhookUrl("http://93.184.216.34/x", { ...strict, allowHttp: true })).resolves.toEqual({ ok: true });
    await expect(checkWebhookUrl("ftp://93.184.216.34/x", permissive)).resolves.toEqual({
      ok: false,
      reason: "must use http or https",
    });
  });

  it("refuses credentials in the URL", async () => {
    const refused = { ok: false, reason: "must not contain a username or password" };
    await expect(checkWebhookUrl("https://user:pass@93.184.216.34/x", permissive)).resolves.toEqual(refused);
    await expect(checkWebhookUrl("https://user@93.184.216.34/x", permissive)).resolves.toEqual(refused);
  });

  it.each(privateUrls)("refuses %s unless allowPrivate", async (url) => {
    const verdict = await checkWebhookUrl(url, strict);
    expect(verdict).toEqual({
      ok: false,
      reason: url.includes("localhost") ? RESOLVES_TO_PRIVATE : IS_PRIVATE,
    });
    await expect(checkWebhookUrl(url, { ...strict, allowPrivate: true })).resolves.toEqual({ ok: true });
  });

  it.each(["not a url", "", "https://", "//93.184.216.34/x"])("refuses the garbage URL %j", async (url) => {
    await expect(checkWebhookUrl(url, permissive)).resolves.toEqual({ ok: false, reason: "is not a valid URL" });
  });

  it("accepts a name that does not resolve, or not in time (it is checked again at delivery)", async () => {
    const looked: string[] = [];
    const notFound: HostLookup = async (hostname) => {
      looked.push(hostname);
      throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    };
    const policy = { ...strict, resolveHost: createHostResolver({ timeoutMs: 2000, lookup: notFound }) };
    await expect(checkWebhookUrl("https://hooks.example.invalid/x", policy)).resolves.toEqual({ ok: true });
    expect(looked).toEqual(["hooks.example.invalid"]);

    const { lookup, signals } = injectedLookup([]);
    const silentPolicy = { ...strict, resolveHost: createHostResolver({ timeoutMs: 100, lookup }) };
    await expect(checkWebhookUrl("https://silent.example/x", silentPolicy)).resolves.toEqual({ ok: true });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it("refuses a name when any of its addresses is private", async () => {
    const { lookup } = injectedLookup([
      { address: "93.184.216.34", family: 4 },
      { address: "::ffff:10.0.0.1", family: 6 },
    ]);
    const policy = { ...strict, resolveHost: createHostResolver({ timeoutMs: 2000, lookup }) };

    await expect(checkWebhookUrl("https://hooks.example.invalid/x", policy)).resolves.toEqual({ ok: false, reason: RESOLVES_TO_PRIVATE });
  });

  it("refuses a name that resolves to an IPv4-compatible IPv6 address of loopback", async () => {
    const { lookup } = injectedLookup([{ address: "::7f00:1", family: 6 }]);
    const policy = { ...strict, resolveHost: createHostResolver({ timeoutMs: 2000, lookup }) };

    await expect(checkWebhookUrl("https://hooks.example.invalid/x", policy)).resolves.toEqual({ ok: false, reason: RESOLVES_TO_PRIVATE });
  });
});

describe("dnsQueries", () => {
  it("answers localhost with loopback, without a query", async () => {
    await expect(dnsQueries({ servers: ["192.0.2.1"] })("localhost", new AbortController().signal)).resolves.toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
  });

  it("leaves libuv's thread pool free while queries to a server that never answers wait, and gives up on each in time", async () => {
    const silentServer = createSocket("udp4");
    await new Promise<void>((resolve) => silentServer.bind(0, "127.0.0.1", resolve));
    try {
      const resolve = createHostResolver({
        timeoutMs: 300,
        lookup: dnsQueries({ servers: [`127.0.0.1:${(silentServer.address() as AddressInfo).port}`] }),
      });
      // More hanging lookups than the pool's four threads: getaddrinfo would hold all of them.
      let settled = 0;
      const hanging = Array.from({ length: 16 }, (_, index) =>
        resolve(`slow-${index}.example`).then(
          () => "answered",
          (error: unknown) => error,
        ).finally(() => (settled += 1)),
      );
      // A lookup on the thread pool (as a processor connection makes) answers meanwhile.
      await expect(dns.promises.lookup("localhost")).resolves.toMatchObject({ address: expect.any(String) });
      expect(settled).toBe(0);
      for (const outcome of await Promise.all(hanging)) {
        expect(outcome).toBeInstanceOf(DnsTimeoutError);
        expect((outcome as Error).message).toMatch(/^no DNS answer for slow-\d+\.example within 300 ms$/);
      }
    } finally {
      silentServer.close();
    }
  });
});

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  requests: Received[];
  connections: number;
}

describe("createWebhookSender", () => {
  const servers: ReturnType<typeof createServer>[] = [];
  const senders: WebhookSender[] = [];

  afterEach(async () => {
    await Promise.all(senders.splice(0).map((sender) => sender.close()));
    await Promise.all(
      servers.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
  });

  function sender(options: UrlPolicy & { timeoutMs: number }): WebhookSender {
    const created = createWebhookSender(options);
    senders.push(created);
    return created;
  }

  /** A server on 127.0.0.1 that records each request (after reading its body) before `respond` runs. */
  async function startServer(respond: (response: ServerResponse, request: IncomingMessage) => void): Promise<TestServer> {
    const state: TestServer = { port: 0, requests: [], connections: 0 };
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        state.requests.push({ method: request.method, url: request.url, headers: request.headers, body });
        respond(response, request);
      });
    });
    server.on("connection", () => {
      state.connections += 1;
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    state.port = (server.address() as AddressInfo).port;
    return state;
  }

  const body = JSON.stringify({ id: "evt_1", type: "transaction.approved", data: { note: "café ☕" } });
  const signed = { "webhook-id": "evt_1", "webhook-timestamp": "1700000000", "webhook-signature": "v1,abc=" };

  it("POSTs the body and headers intact and reports the answer", async () => {
    const server = await startServer((response) => response.writeHead(200).end("ok"));

    const result = await sender({ ...permissive, timeoutMs: 2000 }).send(`http://127.0.0.1:${server.port}/hooks?a=1`, body, signed);

    expect(result).toEqual({ kind: "answered", status: 200, durationMs: expect.any(Number) });
    expect(Number.isInteger(result.durationMs) && result.durationMs >= 0).toBe(true);
    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received).toMatchObject({ method: "POST", url: "/hooks?a=1", body });
    expect(received?.headers).toMatchObject({ ...signed, "content-type": "application/json" });
  });

  it("reports a non-2xx answer and drops a large response body", async () => {
    const server = await startServer((response) => response.writeHead(500).end("x".repeat(1024 * 1024)));

    const result = await sender({ ...permissive, timeoutMs: 2000 }).send(`http://127.0.0.1:${server.port}/`, body, signed);

    expect(result).toMatchObject({ kind: "answered", status: 500 });
  });

  it("does not follow a redirect", async () => {
    const target = await startServer((response) => response.writeHead(200).end());
    const redirecting = await startServer((response) =>
      response.writeHead(302, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end(),
    );

    const result = await sender({ ...permissive, timeoutMs: 2000 }).send(`http://127.0.0.1:${redirecting.port}/`, body, signed);

    expect(result).toMatchObject({ kind: "answered", status: 302 });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  it("fails with a timeout when the server never answers", async () => {
    const server = await startServer(() => {});

    const result = await sender({ ...permissive, timeoutMs: 200 }).send(`http://127.0.0.1:${server.port}/`, body, signed);

    expect(result).toEqual({ kind: "failed", error: "timeout after 200 ms", durationMs: expect.any(Number) });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("fails with a timeout when the response body stalls", async () => {
    const server = await startServer((response) => {
      response.writeHead(200, { "content-length": "100" });
      response.write("partial");
    });

    const result = await sender({ ...permissive, timeoutMs: 200 }).send(`http://127.0.0.1:${server.port}/`, body, signed);

    expect(result).toMatchObject({ kind: "failed", error: "timeout after 200 ms" });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it("fails with the error code when the connection is refused", async () => {
    const port = await freePort();

    const result = await sender({ ...permissive, timeoutMs: 2000 }).send(`http://127.0.0.1:${port}/`, body, signed);

    expect(result).toEqual({ kind: "failed", error: "ECONNREFUSED", durationMs: expect.any(Number) });
  });

  it("resolves names when private addresses are allowed", async () => {
    const server = await startServer((response) => response.writeHead(204).end());

    const result = await sender({ ...permissive, timeoutMs: 2000 }).send(`http://localhost:${server.port}/`, body, signed);

    expect(result).toMatchObject({ kind: "answered", status: 204 });
  });

  it("refuses private addresses, literal or resolved, without connecting", async () => {
    const server = await startServer((response) => response.writeHead(200).end());
    const strictSender = sender({ ...strict, allowHttp: true, timeoutMs: 2000 });

    const results = await Promise.all(
      [
        `http://127.0.0.1:${server.port}/`,
        `http://localhost:${server.port}/`,
        `http://[::1]:${server.port}/`,
        `http://[::ffff:127.0.0.1]:${server.port}/`,
        `http://[::127.0.0.1]:${server.port}/`,
      ].map((url) => strictSender.send(url, body, signed)),
    );

    expect(results.map((result) => result.kind === "failed" && result.error)).toEqual([
      `refused: ${IS_PRIVATE}`,
      `refused: ${RESOLVES_TO_PRIVATE}`,
      `refused: ${IS_PRIVATE}`,
      `refused: ${IS_PRIVATE}`,
      `refused: ${IS_PRIVATE}`,
    ]);
    expect(server.connections).toBe(0);
  });

  it("refuses at delivery a name that resolves to an IPv4-compatible IPv6 address of loopback", async () => {
    const { lookup } = injectedLookup([{ address: "::7f00:1", family: 6 }]);
    const strictSender = sender({ ...strict, resolveHost: createHostResolver({ timeoutMs: 2000, lookup }), timeoutMs: 2000 });

    const result = await strictSender.send("https://hooks.example.invalid/", body, signed);

    expect(result).toMatchObject({ kind: "failed", error: `refused: ${RESOLVES_TO_PRIVATE}` });
  });

  it("refuses http, credentials and garbage at delivery too", async () => {
    const server = await startServer((response) => response.writeHead(200).end());
    const httpsOnly = sender({ ...permissive, allowHttp: false, timeoutMs: 2000 });

    const results = await Promise.all(
      [`http://127.0.0.1:${server.port}/`, `https://user:secret@127.0.0.1:${server.port}/`, "nonsense"].map((url) =>
        httpsOnly.send(url, body, signed),
      ),
    );

    expect(results.map((result) => result.kind === "failed" && result.error)).toEqual([
      `refused: ${HTTPS_ONLY}`,
      "refused: must not contain a username or password",
      "refused: is not a valid URL",
    ]);
    expect(server.connections).toBe(0);
  });

  it("fails a send whose host name's lookup never answers within the DNS bound, while another host's lookup still answers", async () => {
    const server = await startServer((response) => response.writeHead(200).end());
    const { lookup, signals } = injectedLookup([{ address: "127.0.0.1", family: 4 }]);
    const bounded = sender({ ...permissive, resolveHost: createHostResolver({ timeoutMs: 200, lookup }), timeoutMs: 5000 });

    const [silent, answering] = await Promise.all([
      bounded.send(`http://silent.example:${server.port}/`, body, signed),
      bounded.send(`http://answering.example:${server.port}/`, body, signed),
    ]);

    expect(answering).toMatchObject({ kind: "answered", status: 200 });
    expect(silent).toEqual({ kind: "failed", error: "no DNS answer for silent.example within 200 ms", durationMs: expect.any(Number) });
    // Failed by the DNS bound, not by the attempt's own timeout.
    expect(silent.durationMs).toBeGreaterThanOrEqual(190);
    expect(silent.durationMs).toBeLessThan(5000);
    expect(server.requests).toHaveLength(1);
    expect(signals.filter((signal) => signal.aborted)).toHaveLength(1);
  });
});
