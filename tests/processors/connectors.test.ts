import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Processor, processors } from "../../src/domain/host-configurations/schemas.ts";
import { createConnectors } from "../../src/processors/connectors.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import type {
  CardDetails,
  Connectors,
  Operation,
  ProcessorRequest,
} from "../../src/processors/port.ts";
import { type Simulator, startSimulator } from "../../src/processors/simulator/server.ts";
import { freePort } from "./free-port.ts";
import { hostConfiguration } from "./host-configuration.ts";
import { Secret } from "../../src/domain/secret.ts";

const connectorTimeoutMs = 300;
const timeoutCard = "4000000000000408";

let simulator: Simulator;
/** A generous timeout: only the timeout card should ever hit it. */
let connectors: Connectors;
/** The short timeout, for the card that never answers in time. */
let impatient: Connectors;

beforeAll(async () => {
  simulator = await startSimulator({ host: "127.0.0.1", port: 0, timeoutCardDelayMs: 10_000 });
  connectors = createConnectors({ baseUrls: simulator.baseUrls, http: createHttpClient({ timeoutMs: 5_000 }) });
  impatient = createConnectors({ baseUrls: simulator.baseUrls, http: createHttpClient({ timeoutMs: connectorTimeoutMs }) });
});

afterAll(async () => {
  await simulator.close();
});

const card = (number: string, cvc = "123"): CardDetails => ({
  number: new Secret(number),
  expMonth: 12,
  expYear: 2030,
  cvc: new Secret(cvc),
  holderName: "Jane Doe",
});

function request(processor: Processor, operation: Operation, extra: Partial<ProcessorRequest> = {}): ProcessorRequest {
  return {
    operation,
    transactionId: randomUUID(),
    amount: 1099,
    currency: "USD",
    hostConfiguration: hostConfiguration(processor),
    ...extra,
  };
}

/** An authorization or sale of an approved card, approved. */
async function approvedPayment(processor: Processor, operation: "authorization" | "sale") {
  const payment = request(processor, operation, { card: card("4242424242424242") });
  const outcome = await connectors[processor].submit(payment);
  if (outcome.kind !== "approved") throw new Error(`expected an approval, got ${JSON.stringify(outcome)}`);
  return { transactionId: payment.transactionId, reference: outcome.reference };
}

const followUp = (processor: Processor, operation: Operation, parent: { transactionId: string; reference?: string }) =>
  request(processor, operation, {
    parentTransactionId: parent.transactionId,
    ...(parent.reference === undefined ? {} : { parentProcessorReference: parent.reference }),
  });

const approved = {
  kind: "approved",
  code: "00",
  authorizationCode: expect.stringMatching(/^[A-Z0-9]{6}$/),
  reference: expect.any(String),
};
const declined = (code: string, declineCode: string) => ({ kind: "declined", code, declineCode });
const failed = (reason: string, code?: string) => ({ kind: "failed", reason, ...(code ? { code } : {}) });

const cards: [string, Record<string, unknown>][] = [
  ["4242424242424242", approved],
  ["5555555555554444", approved],
  ["378282246310005", approved],
  ["4111111111111111", approved],
  ["4000000000000002", declined("05", "card_declined")],
  ["4000000000009995", declined("51", "insufficient_funds")],
  ["4000000000000069", declined("54", "expired_card")],
  ["4000000000000127", declined("N7", "incorrect_cvc")],
  ["4000000000000119", failed("processor_error", "96")],
];

describe.each(processors)("%s", (processor) => {
  describe.each(["authorization", "sale"] as const)("%s", (operation) => {
    it.each(cards)("card %s", async (number, expected) => {
      const outcome = await connectors[processor].submit(request(processor, operation, { card: card(number) }));
      expect(outcome).toMatchObject(expected);
    });
  });

  it("captures, refunds and voids approved payments", async () => {
    const connector = connectors[processor];
    const authorization = await approvedPayment(processor, "authorization");
    const capture = request(processor, "capture", {
      parentTransactionId: authorization.transactionId,
      parentProcessorReference: authorization.reference,
      amount: 500,
    });
    const captured = await connector.submit(capture);
    expect(captured).toMatchObject(approved);
    if (captured.kind !== "approved") return;

    const captureIds = { transactionId: capture.transactionId, reference: captured.reference };
    const refundOfCapture = followUp(processor, "refund", captureIds);
    expect(await connector.submit(refundOfCapture)).toMatchObject(approved);

    const sale = await approvedPayment(processor, "sale");
    expect(await connector.submit(followUp(processor, "refund", sale))).toMatchObject(approved);
    expect(await connector.submit(followUp(processor, "void", sale))).toMatchObject(approved);

    const toVoid = await approvedPayment(processor, "authorization");
    expect(await connector.submit(followUp(processor, "void", toVoid))).toMatchObject(approved);
  });

  it("finds the parent by our transaction id alone", async () => {
    const authorization = await approvedPayment(processor, "authorization");
    const capture = followUp(processor, "capture", { transactionId: authorization.transactionId });
    expect(await connectors[processor].submit(capture)).toMatchObject(approved);
  });

  it("fails follow-ups whose parent is unknown, declined or voided", async () => {
    const connector = connectors[processor];
    const unknownParent = followUp(processor, "capture", { transactionId: randomUUID() });
    expect(await connector.submit(unknownParent)).toMatchObject(failed("processor_error", "25"));

    const declinedAuthorization = request(processor, "authorization", { card: card("4000000000000002") });
    await connector.submit(declinedAuthorization);
    const captureOfDeclined = followUp(processor, "capture", { transactionId: declinedAuthorization.transactionId });
    expect(await connector.submit(captureOfDeclined)).toMatchObject(failed("processor_error", "12"));

    const voided = await approvedPayment(processor, "authorization");
    expect(await connector.submit(followUp(processor, "void", voided))).toMatchObject(approved);
    expect(await connector.submit(followUp(processor, "capture", voided))).toMatchObject(failed("processor_error", "12"));
  });

  it("gives no answer in time for the timeout card, and reports it approved when asked later", async () => {
    const payment = request(processor, "sale", { card: card(timeoutCard) });
    const started = performance.now();
    const outcome = await impatient[processor].submit(payment);
    expect(outcome.kind).toBe("unknown");
    expect(performance.now() - started).toBeLessThan(connectorTimeoutMs + 1_000);

    const inquiry = await connectors[processor].inquire({
      transactionId: payment.transactionId,
      hostConfiguration: payment.hostConfiguration,
    });
    expect(inquiry).toMatchObject(approved);
  });

  it("gives no answer in time for card 0424; the first two inquiries do not find it, later ones report it approved", async () => {
    const payment = request(processor, "sale", { card: card("4000000000000424") });
    expect((await impatient[processor].submit(payment)).kind).toBe("unknown");

    const inquiry = { transactionId: payment.transactionId, hostConfiguration: payment.hostConfiguration };
    expect(await connectors[processor].inquire(inquiry)).toEqual({ kind: "not_found" });
    expect(await connectors[processor].inquire(inquiry)).toEqual({ kind: "not_found" });
    expect(await connectors[processor].inquire(inquiry)).toMatchObject(approved);
    expect(await connectors[processor].inquire(inquiry)).toMatchObject(approved);
  });

  it("reports recorded outcomes and unknown transactions on inquiry", async () => {
    const connector = connectors[processor];
    const configuration = hostConfiguration(processor);
    const notSent = await connector.inquire({ transactionId: randomUUID(), hostConfiguration: configuration });
    expect(notSent).toEqual({ kind: "not_found" });

    const payment = request(processor, "authorization", { card: card("4000000000009995") });
    const submitted = await connector.submit(payment);
    const inquired = await connector.inquire({ transactionId: payment.transactionId, hostConfiguration: configuration });
    expect(inquired).toEqual(submitted);
  });

  it("answers a repeated transaction id with its first outcome", async () => {
    const payment = request(processor, "sale", { card: card("4242424242424242") });
    const first = await connectors[processor].submit(payment);
    expect(await connectors[processor].submit(payment)).toEqual(first);
  });

  it("fails with processor_error when the connection is refused", async () => {
    const closedPort = await freePort();
    const url = `http://127.0.0.1:${closedPort}`;
    const offline = createConnectors({
      baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url },
      http: createHttpClient({ timeoutMs: 1_000 }),
    });
    const payment = request(processor, "sale", { card: card("4242424242424242") });
    expect(await offline[processor].submit(payment)).toMatchObject(failed("processor_error", "connection_failed"));
    const { transactionId, hostConfiguration: configuration } = payment;
    const inquiry = await offline[processor].inquire({ transactionId, hostConfiguration: configuration });
    expect(inquiry.kind).toBe("unknown");
  });

  it("never lets the card number, CVC or secrets reach what the simulator keeps", async () => {
    const payment = request(processor, "authorization", { card: card("5555555555554444", "987") });
    await connectors[processor].submit(payment);
    const kept = JSON.stringify(simulator.received(payment.transactionId));
    expect(kept).toContain("4444");
    expect(kept).not.toContain("5555555555554444");
    expect(kept).not.toContain('"987"');
    const { username: _notSecret, ...secrets } = payment.hostConfiguration.credentials?.expose() ?? {};
    for (const secret of Object.values(secrets)) expect(kept).not.toContain(JSON.stringify(secret));
  });
});

describe("credentials", () => {
  it.each([
    ["processor_c", { username: "acme", password: "invalid-password" }],
    ["processor_d", { secretApiKey: "invalid-key" }],
  ] as const)("%s rejects bad credentials: processor_authentication_failed", async (processor, credentials) => {
    const payment = request(processor, "sale", {
      card: card("4242424242424242"),
      hostConfiguration: hostConfiguration(processor, credentials),
    });
    expect(await connectors[processor].submit(payment)).toMatchObject(failed("processor_authentication_failed", "http_401"));
  });

  it.each([
    ["processor_b", { datawireId: "0001234567890123456\n" }, "credentials.datawireId", "must be 20 digits"],
    ["processor_b", { datawireId: "00012345678901234567", extra: "extra-secret" }, "credentials", "have fields the processor does not take (extra)"],
    ["processor_c", { username: "acme" }, "credentials.password", "is missing"],
    ["processor_d", { secretApiKey: "sk_live\r\nx-injected: 1" }, "credentials.secretApiKey", "must be printable ASCII, not starting or ending with a space: it is sent in an HTTP header"],
    ["processor_d", { secretApiKey: 424242424242 }, "credentials.secretApiKey", "must be a string"],
    ["processor_d", null, "credentials", "are missing"],
  ] as const)(
    "%s never sends credentials %j it cannot send whole: it fails, naming the field in its answer and one log line",
    async (processor, credentials, field, problem) => {
      const lines: unknown[] = [];
      const logging = createConnectors({
        baseUrls: simulator.baseUrls,
        http: createHttpClient({ timeoutMs: 5_000 }),
        log: { error: (fields, message) => lines.push({ ...fields, message }) },
      });
      const configuration = hostConfiguration(processor, credentials);
      const payment = request(processor, "sale", { card: card("4242424242424242"), hostConfiguration: configuration });
      const submitted = await logging[processor].submit(payment);
      expect(submitted).toEqual({
        ...failed("processor_authentication_failed", "credentials_unusable"),
        message: `The host configuration's ${field} ${problem}: nothing was sent to the processor.`,
      });
      const inquired = await logging[processor].inquire({ transactionId: payment.transactionId, hostConfiguration: configuration });
      expect(inquired).toMatchObject({ kind: "unknown", message: expect.stringContaining(`${field} ${problem}`) });
      const closed = await logging[processor].closeBatch({ settlementId: randomUUID(), hostConfiguration: configuration, transactionIds: [] });
      expect(closed).toMatchObject({ kind: "refused", message: expect.stringContaining(`${field} ${problem}`) });
      expect(simulator.received(payment.transactionId)).toBeUndefined();
      const logged = { hostConfigurationId: configuration.view.id, processor, field, problem, message: expect.stringContaining("nothing was sent") };
      expect(lines).toEqual([logged, logged, logged]);
      const printed = JSON.stringify([submitted, inquired, closed, lines]);
      for (const value of Object.values(credentials ?? {})) {
        expect(printed).not.toContain(typeof value === "string" ? JSON.stringify(value).slice(1, -1) : String(value));
      }
    },
  );

  it("answers a header value HTTP cannot carry as not sent", async () => {
    const http = createHttpClient({ timeoutMs: 1_000 });
    const result = await http.get(`${simulator.baseUrls.processor_b}/processor_b/transactions/x`, { "x-datawire-id": "1\r\nx-injected: 1" });
    expect(result).toEqual({ kind: "not_sent", code: "UND_ERR_INVALID_ARG" });
    await http.close();
  });

  it.each(["processor_b", "processor_c", "processor_d"] as const)(
    "%s sends nothing without usable credentials",
    async (processor) => {
      const payment = request(processor, "sale", {
        card: card("4242424242424242"),
        hostConfiguration: hostConfiguration(processor, null),
      });
      expect(await connectors[processor].submit(payment)).toMatchObject(
        failed("processor_authentication_failed", "credentials_unusable"),
      );
      expect(simulator.received(payment.transactionId)).toBeUndefined();
    },
  );
});

describe("each connector's own message", () => {
  async function sent(processor: Processor, operation: Operation = "authorization") {
    const payment = request(processor, operation, { card: card("4242424242424242") });
    await connectors[processor].submit(payment);
    const message = simulator.received(payment.transactionId);
    if (!message) throw new Error("the simulator received nothing");
    return { message, body: message.body as Record<string, Record<string, unknown>>, payment };
  }

  it("processor_a: merchant and terminal fields of the configuration, a 12-digit amount", async () => {
    const { message, body, payment } = await sent("processor_a");
    expect(message.path).toBe("/processor_a/v1/authorize");
    expect(body).toMatchObject({
      messageType: "0100",
      transactionReference: payment.transactionId,
      amount: "000000001099",
      currency: "USD",
      merchant: { merchantNumber: "000123456789", acquirerBin: "012345", amexSeNumber: "0123456789" },
      terminal: {
        agentBank: "000001",
        agentChain: "000002",
        storeNumber: "0001",
        terminalNumber: "0002",
        terminalId: "00000001",
        mcc: "5411",
        mvv: "0A1B2C3D4E",
        industryCode: "R",
      },
      card: { pan: "************4242", expiry: "3012", cvv2: "[redacted]", cardholderName: "Jane Doe" },
    });
  });

  it("processor_b: header and transaction envelope, Datawire id in a header", async () => {
    const { message, body, payment } = await sent("processor_b", "sale");
    expect(message.path).toBe("/processor_b/transactions");
    expect(message.headers["x-datawire-id"]).toBe("[redacted]");
    expect(body).toMatchObject({
      header: {
        merchantId: "0000MERCH01",
        groupId: "00G01",
        tppId: "RSO001",
        amexSeNumber: "012345678901234",
        terminalId: "00000001",
        mcc: "5812",
        mvv: "0123456789",
      },
      transaction: {
        type: "SALE",
        clientRef: payment.transactionId,
        amount: { value: 1099, currency: "USD" },
        card: { accountNumber: "************4242", expirationDate: "1230" },
      },
    });
  });

  it("processor_c: ssl_ fields with the username and a decimal amount", async () => {
    const { message, body, payment } = await sent("processor_c");
    expect(message.path).toBe("/processor_c/api/process");
    expect(body).toMatchObject({
      ssl_transaction_type: "ccauthonly",
      ssl_merchant_id: "012345",
      ssl_user_id: "acme",
      ssl_pin: "[redacted]",
      ssl_platform_bin: "000001",
      ssl_terminal_id: "001",
      ssl_client_number: "0001",
      ssl_store_number: "0002",
      ssl_invoice_number: payment.transactionId,
      ssl_amount: "10.99",
      ssl_transaction_currency: "USD",
      ssl_exp_date: "1230",
    });
  });

  it("processor_c: amounts go in the currency's ISO 4217 decimals (1000 HUF minor units are 10.00), counted back exactly", async () => {
    for (const [amount, currency, decimal] of [
      [1000, "HUF", "10.00"],
      [150000, "IDR", "1500.00"],
      [1234, "IQD", "1.234"],
      [500, "JPY", "500"],
    ] as const) {
      const payment = request("processor_c", "sale", { amount, currency, card: card("4242424242424242") });
      expect(await connectors.processor_c.submit(payment)).toMatchObject(approved);
      expect(simulator.received(payment.transactionId)?.body).toMatchObject({
        ssl_amount: decimal,
        ssl_transaction_currency: currency,
      });
    }
  });

  it("processor_d: a payment resource with acquirer and terminal, a bearer key and an idempotency key", async () => {
    const { message, body, payment } = await sent("processor_d");
    expect(message.path).toBe("/processor_d/v2/payments");
    expect(message.headers.authorization).toBe("[redacted]");
    expect(message.headers["idempotency-key"]).toBe(payment.transactionId);
    expect(body).toMatchObject({
      reference: payment.transactionId,
      capture: false,
      amount: { value: 1099, currency: "USD" },
      acquirer: { bin: "000123", merchantId: "0MERCHANT00001", institutionId: "00000012345" },
      terminal: { terminalId: "0TERM001", terminalNumber: "0001", mcc: "5999", mvv: "00FFAA11BB" },
      paymentMethod: { type: "card", number: "************4242", expiryMonth: 12, expiryYear: 2030 },
    });
  });

  it("processor_d: follow-ups go under the parent payment's processor id", async () => {
    const authorization = await approvedPayment("processor_d", "authorization");
    const capture = followUp("processor_d", "capture", authorization);
    await connectors.processor_d.submit(capture);
    expect(simulator.received(capture.transactionId)?.path).toBe(
      `/processor_d/v2/payments/${authorization.reference}/captures`,
    );
  });

  it("a follow-up carries no card", async () => {
    const authorization = await approvedPayment("processor_a", "authorization");
    const capture = followUp("processor_a", "capture", authorization);
    await connectors.processor_a.submit(capture);
    expect(simulator.received(capture.transactionId)?.body).toMatchObject({
      messageType: "0220",
      originalTransactionReference: authorization.transactionId,
      originalRetrievalReferenceNumber: authorization.reference,
    });
    expect(simulator.received(capture.transactionId)?.body).not.toHaveProperty("card");
  });
});

describe("simulator", () => {
  it("ends held answers promptly when it closes", async () => {
    const own = await startSimulator({ port: 0, timeoutCardDelayMs: 60_000 });
    const connector = createConnectors({ baseUrls: own.baseUrls, http: createHttpClient({ timeoutMs: 30_000 }) }).processor_a;
    const sale = request("processor_a", "sale", { card: card(timeoutCard) });
    const pending = connector.submit(sale);
    while (!own.received(sale.transactionId)) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await own.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    // Closing releases the held answer, which is the approval the processor recorded.
    expect((await pending).kind).toBe("approved");
  });

  it("answers 400 to a malformed message without echoing it", async () => {
    const response = await fetch(`${simulator.url}/processor_a/v1/sale`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ card: { pan: "4242424242424242" } }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain("4242424242424242");

    const invalidJson = await fetch(`${simulator.url}/processor_a/v1/sale`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"pan": 4242424242424242',
    });
    expect(invalidJson.status).toBe(400);
    expect(await invalidJson.text()).not.toContain("4242424242424242");
  });
});
