import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnectors } from "../../src/processors/connectors.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import type { Connectors, ProcessorConnector, ProcessorRequest } from "../../src/processors/port.ts";
import { hostConfiguration as configurationOf } from "./host-configuration.ts";
import { Secret } from "../../src/domain/secret.ts";

/** How HTTP answers that the simulator never gives map onto outcomes, against a stub processor. */

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler = (_request, response) => response.end();
let server: Server;
let connectors: Connectors;
let connector: ProcessorConnector;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => handler(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const baseUrls = { processor_a: url, processor_b: url, processor_c: url, processor_d: url };
  connectors = createConnectors({ baseUrls, http: createHttpClient({ timeoutMs: 500 }) });
  connector = connectors.processor_a;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const reply = (status: number, body: string) => {
  handler = (_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  };
};

const hostConfiguration = configurationOf("processor_a");

const sale = (): ProcessorRequest => ({
  operation: "sale",
  transactionId: randomUUID(),
  amount: 100,
  currency: "USD",
  card: { number: new Secret("4242424242424242"), expMonth: 1, expYear: 2031 },
  hostConfiguration,
});

describe("submit", () => {
  it.each([
    [400, { kind: "failed", reason: "processor_error", code: "http_400" }],
    [401, { kind: "failed", reason: "processor_authentication_failed", code: "http_401" }],
    [403, { kind: "failed", reason: "processor_authentication_failed", code: "http_403" }],
    [422, { kind: "failed", reason: "processor_error", code: "http_422" }],
  ])("HTTP %i", async (status, expected) => {
    reply(status, "{}");
    expect(await connector.submit(sale())).toMatchObject(expected);
  });

  // The request reached the processor, which may have passed it to the issuer before it failed.
  describe.each([500, 502, 503, 504])("HTTP %i is an unknown outcome, not a failure", (status) => {
    it.each(processors)("%s", async (processor) => {
      reply(status, JSON.stringify({ error: "internal_error" }));
      const outcome = await connectors[processor].submit({
        ...sale(),
        hostConfiguration: configurationOf(processor),
      });
      expect(outcome).toEqual({ kind: "unknown", message: `The processor answered HTTP ${status}.` });
    });
  });

  it("an unreadable 200 is unknown: it may have been an approval", async () => {
    reply(200, "<html>ok</html>");
    expect((await connector.submit(sale())).kind).toBe("unknown");
    reply(200, JSON.stringify({ unexpected: true }));
    expect((await connector.submit(sale())).kind).toBe("unknown");
  });

  it("an approval without an authorization code is unknown, not a failure", async () => {
    reply(200, JSON.stringify({ responseCode: "00", retrievalReferenceNumber: "123456789012" }));
    expect((await connector.submit(sale())).kind).toBe("unknown");
  });

  it("an unknown response code fails with processor_error and keeps the code", async () => {
    reply(200, JSON.stringify({ responseCode: "91", responseText: "Issuer unavailable", retrievalReferenceNumber: "1" }));
    expect(await connector.submit(sale())).toEqual({
      kind: "failed",
      code: "91",
      message: "Issuer unavailable",
      reason: "processor_error",
      reference: "1",
    });
  });

  it("a connection closed after the request was sent is unknown", async () => {
    handler = (request) => request.socket.destroy();
    expect((await connector.submit(sale())).kind).toBe("unknown");
  });

  it("a slow answer is unknown after the timeout, and the request is sent once", async () => {
    let received = 0;
    handler = (_request, response) => {
      received++;
      setTimeout(() => response.end("{}"), 1_500).unref();
    };
    expect((await connector.submit(sale())).kind).toBe("unknown");
    expect(received).toBe(1);
  });

  it("an answer that trickles in past the timeout is unknown, though every part of it came in time", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.write("{");
      const trickle = setInterval(() => response.write(" "), 100);
      setTimeout(() => {
        clearInterval(trickle);
        response.end(JSON.stringify({ responseCode: "00", approvalCode: "A1B2C3", retrievalReferenceNumber: "123456789012" }).slice(1));
      }, 1_500).unref();
    };
    expect((await connector.submit(sale())).kind).toBe("unknown");
  });
});

describe("inquire", () => {
  const inquire = () => connector.inquire({ transactionId: randomUUID(), hostConfiguration });

  it("a 404 that is not the processor's own answer is unknown, not not_found", async () => {
    reply(404, JSON.stringify({ message: "Route not found" }));
    expect((await inquire()).kind).toBe("unknown");
    reply(404, JSON.stringify({ responseCode: "25" }));
    expect(await inquire()).toEqual({ kind: "not_found" });
  });

  it.each([401, 500, 503])("HTTP %i says nothing about the transaction: unknown", async (status) => {
    reply(status, "{}");
    expect((await inquire()).kind).toBe("unknown");
  });
});

describe("closeBatch", () => {
  const closeBatch = () => connector.closeBatch({ settlementId: randomUUID(), hostConfiguration, transactionIds: [randomUUID()] });

  it.each([400, 401, 403, 422])("HTTP %i refuses it: nothing was closed", async (status) => {
    reply(status, "{}");
    expect((await closeBatch()).kind).toBe("refused");
  });

  it("a readable answer that is not an approval refuses it, in the processor's words", async () => {
    reply(200, JSON.stringify({ messageType: "0510", responseCode: "12", responseText: "Batch not accepted" }));
    expect(await closeBatch()).toEqual({ kind: "refused", message: "Batch not accepted" });
  });

  it.each([500, 502, 504])("HTTP %i is unknown: the batch may be closed", async (status) => {
    reply(status, JSON.stringify({ error: "internal_error" }));
    expect((await closeBatch()).kind).toBe("unknown");
  });

  it("an unreadable answer, or an approval without totals, is unknown", async () => {
    reply(200, "<html>ok</html>");
    expect((await closeBatch()).kind).toBe("unknown");
    reply(200, JSON.stringify({ messageType: "0510", responseCode: "00" }));
    expect((await closeBatch()).kind).toBe("unknown");
    const overflowing = { currency: "USD", salesCount: "0000000001", salesAmount: "9999999999999999" };
    const totals = [{ ...overflowing, refundsCount: "0000000000", refundsAmount: "0000000000000000", netAmount: "C9999999999999999" }];
    reply(200, JSON.stringify({ messageType: "0510", responseCode: "00", totals }));
    expect((await closeBatch()).kind).toBe("unknown");
  });

  it("a connection closed after the request was sent is unknown", async () => {
    handler = (request) => request.socket.destroy();
    expect((await closeBatch()).kind).toBe("unknown");
  });
});
