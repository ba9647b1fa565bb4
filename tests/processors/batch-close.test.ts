import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostConfigurationView } from "../../src/domain/host-configurations/decider.ts";
import { type Processor, processors } from "../../src/domain/host-configurations/schemas.ts";
import { type SettlementTotals, totalsMatch, totalsOf } from "../../src/domain/settlements/totals.ts";
import type { JsonObject } from "../../src/eventstore/port.ts";
import { createConnectors } from "../../src/processors/connectors.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import type { Connectors, Operation, ProcessorHostConfiguration, ProcessorRequest } from "../../src/processors/port.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import { type Simulator, startSimulator } from "../../src/processors/simulator/server.ts";
import { freePort } from "./free-port.ts";
import { hostConfiguration } from "./host-configuration.ts";
import { Secret } from "../../src/domain/secret.ts";

/** Batch close through each connector against the simulated processor: its own totals, counted once. */

let simulator: Simulator;
let connectors: Connectors;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0 });
  connectors = connectorsOf(simulator);
});

afterAll(async () => {
  await simulator.close();
});

function connectorsOf(target: Pick<Simulator, "baseUrls">): Connectors {
  return createConnectors({ baseUrls: target.baseUrls, http: createHttpClient({ timeoutMs: 5_000 }) });
}

const card = { number: new Secret("4242424242424242"), expMonth: 12, expYear: 2030, cvc: new Secret("123") };

interface Approved {
  transactionId: string;
  reference: string;
}

/** Submits an operation and expects it approved. */
async function approve(
  processor: Processor,
  operation: Operation,
  fields: { amount: number; currency: string; parent?: Approved; configuration?: ProcessorHostConfiguration },
  target: Connectors = connectors,
): Promise<Approved> {
  const request: ProcessorRequest = {
    operation,
    transactionId: randomUUID(),
    amount: fields.amount,
    currency: fields.currency,
    hostConfiguration: fields.configuration ?? hostConfiguration(processor),
    ...(operation === "authorization" || operation === "sale" ? { card } : {}),
    ...(fields.parent
      ? { parentTransactionId: fields.parent.transactionId, parentProcessorReference: fields.parent.reference }
      : {}),
  };
  const outcome = await target[processor].submit(request);
  if (outcome.kind !== "approved") throw new Error(`expected an approval, got ${JSON.stringify(outcome)}`);
  return { transactionId: request.transactionId, reference: outcome.reference };
}

function closeBatch(
  processor: Processor,
  transactionIds: readonly string[],
  options: { settlementId?: string; configuration?: ProcessorHostConfiguration; target?: Connectors } = {},
) {
  return (options.target ?? connectors)[processor].closeBatch({
    settlementId: options.settlementId ?? randomUUID(),
    hostConfiguration: options.configuration ?? hostConfiguration(processor),
    transactionIds,
  });
}

async function closedTotals(...args: Parameters<typeof closeBatch>): Promise<SettlementTotals[]> {
  const outcome = await closeBatch(...args);
  if (outcome.kind !== "closed") throw new Error(`expected the batch closed, got ${JSON.stringify(outcome)}`);
  return outcome.totals;
}

const totals = (currency: string, sales: [number, number], refunds: [number, number] = [0, 0]): SettlementTotals => ({
  currency,
  salesCount: sales[0],
  salesAmount: sales[1],
  refundsCount: refunds[0],
  refundsAmount: refunds[1],
  netAmount: sales[1] - refunds[1],
});

/** The same host configuration, for another merchant of the processor. */
function otherMerchant(processor: Processor): ProcessorHostConfiguration {
  const merchantIds: Record<Processor, JsonObject> = {
    processor_a: { merchantNumber: "000999999999" },
    processor_b: { merchantId: "OTHER01" },
    processor_c: { merchantId: "099999" },
    processor_d: { merchantId: "OTHERMERCHANT1" },
  };
  const configuration = hostConfiguration(processor);
  const view = { ...configuration.view, merchant: { ...configuration.view.merchant, ...merchantIds[processor] } };
  return { ...configuration, view: view as HostConfigurationView };
}

describe.each(processors)("%s", (processor) => {
  it("closes a batch of a sale, a capture and a refund with its totals per currency; closing it again answers the same", async () => {
    const sale = await approve(processor, "sale", { amount: 1099, currency: "USD" });
    const authorization = await approve(processor, "authorization", { amount: 800, currency: "JPY" });
    const capture = await approve(processor, "capture", { amount: 500, currency: "JPY", parent: authorization });
    const refund = await approve(processor, "refund", { amount: 300, currency: "USD", parent: sale });
    const settlementId = randomUUID();
    const batch = [sale, capture, refund].map(({ transactionId }) => transactionId);

    const first = await closeBatch(processor, batch, { settlementId });
    expect(first).toEqual({
      kind: "closed",
      totals: [totals("JPY", [1, 500]), totals("USD", [1, 1099], [1, 300])],
      transactionIds: batch,
    });

    // The batch is closed: a sale listed in a repeated close is not added to it.
    const later = await approve(processor, "sale", { amount: 700, currency: "USD" });
    expect(await closeBatch(processor, [...batch, later.transactionId], { settlementId })).toEqual(first);
    expect(await closedTotals(processor, [later.transactionId])).toEqual([totals("USD", [1, 700])]);
  });

  it("counts a transaction in the first batch that settles it only", async () => {
    const sale = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    expect(await closedTotals(processor, [sale.transactionId])).toEqual([totals("EUR", [1, 1000])]);
    expect(await closedTotals(processor, [sale.transactionId])).toEqual([]);
  });

  it("does not count a voided sale listed in the batch: its totals differ from the ledger's", async () => {
    const kept = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    const voided = await approve(processor, "sale", { amount: 2500, currency: "EUR" });
    await approve(processor, "void", { amount: 2500, currency: "EUR", parent: voided });
    const settlementId = randomUUID();

    const processorTotals = await closedTotals(processor, [kept.transactionId, voided.transactionId], { settlementId });
    expect(processorTotals).toEqual([totals("EUR", [1, 1000])]);
    const again = await closeBatch(processor, [kept.transactionId, voided.transactionId], { settlementId });
    expect(again).toMatchObject({ kind: "closed", transactionIds: [kept.transactionId] });
    const ledgerTotals = totalsOf([
      { type: "sale", currency: "EUR", amount: 1000 },
      { type: "sale", currency: "EUR", amount: 2500 },
    ]);
    expect(totalsMatch(ledgerTotals, processorTotals)).toBe(false);

    const settlementOf = (transactionId: string) =>
      simulator.transactions().find((transaction) => transaction.transactionId === transactionId)?.settlementId;
    expect(settlementOf(kept.transactionId)).toBe(settlementId);
    expect(settlementOf(voided.transactionId)).toBeNull();
  });

  it("does not count an id it never saw, nor another merchant's sale", async () => {
    const sale = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    const elsewhere = await approve(processor, "sale", {
      amount: 4000,
      currency: "EUR",
      configuration: otherMerchant(processor),
    });
    const listed = [sale.transactionId, randomUUID(), elsewhere.transactionId];

    const processorTotals = await closedTotals(processor, listed);
    expect(processorTotals).toEqual([totals("EUR", [1, 1000])]);
    const ledgerTotals = totalsOf(listed.map(() => ({ type: "sale" as const, currency: "EUR", amount: 1000 })));
    expect(totalsMatch(ledgerTotals, processorTotals)).toBe(false);
    // Left open for its own merchant's batch.
    expect(await closedTotals(processor, [elsewhere.transactionId], { configuration: otherMerchant(processor) })).toEqual([
      totals("EUR", [1, 4000]),
    ]);
  });

  it("refuses to void a settled sale (12) but still refunds it, a batch of that refund alone netting negative", async () => {
    const sale = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    await closedTotals(processor, [sale.transactionId]);

    const voidRequest: ProcessorRequest = {
      operation: "void",
      transactionId: randomUUID(),
      amount: 1000,
      currency: "EUR",
      parentTransactionId: sale.transactionId,
      parentProcessorReference: sale.reference,
      hostConfiguration: hostConfiguration(processor),
    };
    expect(await connectors[processor].submit(voidRequest)).toMatchObject({ kind: "failed", code: "12" });

    const refund = await approve(processor, "refund", { amount: 400, currency: "EUR", parent: sale });
    expect(await closedTotals(processor, [refund.transactionId])).toEqual([totals("EUR", [0, 0], [1, 400])]);
  });

  it("answers the same totals for the same batch after a restart, its transactions still settled", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "batch-close-"));
    const settlementId = randomUUID();
    try {
      const first = await startSimulator({ dataDir });
      let sale: Approved;
      let answered: SettlementTotals[];
      try {
        const own = connectorsOf(first);
        sale = await approve(processor, "sale", { amount: 1234, currency: "GBP" }, own);
        answered = await closedTotals(processor, [sale.transactionId], { settlementId, target: own });
        expect(answered).toEqual([totals("GBP", [1, 1234])]);
      } finally {
        await first.close();
      }

      const second = await startSimulator({ dataDir });
      try {
        const own = connectorsOf(second);
        expect(await closedTotals(processor, [sale.transactionId], { settlementId, target: own })).toEqual(answered);
        expect(await closedTotals(processor, [sale.transactionId], { target: own })).toEqual([]);
        expect(second.transactions().find((t) => t.transactionId === sale.transactionId)?.settlementId).toBe(settlementId);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("is unknown when the processor cannot be reached", async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const offline = connectorsOf({ baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url } });
    expect((await closeBatch(processor, [randomUUID()], { target: offline })).kind).toBe("unknown");
  });
});

describe("credentials", () => {
  it.each([
    ["processor_c", { username: "acme", password: "invalid-password" }],
    ["processor_d", { secretApiKey: "invalid-key" }],
  ] as const)("%s refuses a batch close with rejected credentials, and closes nothing", async (processor, credentials) => {
    const sale = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    const settlementId = randomUUID();
    const rejected = await closeBatch(processor, [sale.transactionId], {
      settlementId,
      configuration: hostConfiguration(processor, credentials),
    });
    expect(rejected.kind).toBe("refused");
    expect(await closedTotals(processor, [sale.transactionId], { settlementId })).toEqual([totals("EUR", [1, 1000])]);
  });

  it.each(["processor_b", "processor_c", "processor_d"] as const)(
    "%s refuses without usable credentials, sending nothing",
    async (processor) => {
      const settlementId = randomUUID();
      const outcome = await closeBatch(processor, [], { settlementId, configuration: hostConfiguration(processor, null) });
      expect(outcome.kind).toBe("refused");
      expect(simulator.received(settlementId)).toBeUndefined();
    },
  );
});

describe("each connector's own batch-close message, as the simulator keeps it", () => {
  const expected: Record<Processor, (settlementId: string, transactionId: string) => object> = {
    processor_a: (settlementId, transactionId) => ({
      path: "/processor_a/v1/batch-close",
      body: {
        messageType: "0500",
        batchReference: settlementId,
        transactionReferences: [transactionId],
        merchant: { merchantNumber: "000123456789" },
        terminal: { terminalId: "00000001" },
      },
    }),
    processor_b: (settlementId, transactionId) => ({
      path: "/processor_b/batches",
      headers: { "x-datawire-id": "[redacted]" },
      body: {
        header: { merchantId: "0000MERCH01", terminalId: "00000001" },
        batch: { type: "CLOSE", batchRef: settlementId, clientRefs: [transactionId] },
      },
    }),
    processor_c: (settlementId, transactionId) => ({
      path: "/processor_c/api/settle",
      body: {
        ssl_transaction_type: "ccsettle",
        ssl_merchant_id: "012345",
        ssl_user_id: "acme",
        ssl_pin: "[redacted]",
        ssl_terminal_id: "001",
        ssl_batch_number: settlementId,
        ssl_invoice_numbers: [transactionId],
      },
    }),
    processor_d: (settlementId, transactionId) => ({
      path: "/processor_d/v2/settlements",
      headers: { authorization: "[redacted]", "idempotency-key": settlementId },
      body: {
        reference: settlementId,
        acquirer: { merchantId: "0MERCHANT00001" },
        terminal: { terminalId: "0TERM001" },
        payments: [transactionId],
      },
    }),
  };

  it.each(processors)("%s: the configuration's merchant and terminal, our ids, no secret", async (processor) => {
    const sale = await approve(processor, "sale", { amount: 1000, currency: "EUR" });
    const settlementId = randomUUID();
    const configuration = hostConfiguration(processor);
    await closedTotals(processor, [sale.transactionId], { settlementId, configuration });

    const kept = simulator.received(settlementId);
    expect(kept).toMatchObject(expected[processor](settlementId, sale.transactionId));
    const { username: _notSecret, ...secrets } = configuration.credentials?.expose() ?? {};
    for (const secret of Object.values(secrets)) expect(JSON.stringify(kept)).not.toContain(JSON.stringify(secret));
  });
});

describe("the simulated processors' batch close", () => {
  const secret = "s3cret pass!";
  const malformed: [Processor, string, Record<string, string>, Record<string, unknown>, string][] = [
    ["processor_a", "/processor_a/v1/batch-close", {}, { messageType: "0500", batchReference: secret }, "merchant"],
    [
      "processor_b",
      "/processor_b/batches",
      { "x-datawire-id": "00012345678901234567" },
      { header: { merchantId: secret }, batch: { type: "CLOSE" } },
      "batch.batchRef",
    ],
    [
      "processor_c",
      "/processor_c/api/settle",
      {},
      { ssl_merchant_id: "012345", ssl_user_id: "acme", ssl_pin: secret, ssl_transaction_type: "ccsettle" },
      "ssl_batch_number",
    ],
    [
      "processor_d",
      "/processor_d/v2/settlements",
      { authorization: "Bearer sk_live_0123" },
      { reference: randomUUID(), payments: [secret, 42] },
      "payments.1",
    ],
  ];

  it.each(malformed)("%s answers 400 malformed_message with the bad fields' paths, echoing no value", async (_processor, route, headers, body, field) => {
    const response = await fetch(`${simulator.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: "malformed_message", fields: expect.arrayContaining([field]) });
    expect(text).not.toContain(secret);
  });

  it("lists each transaction's settlement over HTTP", async () => {
    const sale = await approve("processor_b", "sale", { amount: 1000, currency: "EUR" });
    const open = await approve("processor_b", "sale", { amount: 1000, currency: "EUR" });
    const settlementId = randomUUID();
    await closedTotals("processor_b", [sale.transactionId], { settlementId });

    const { data } = (await (await fetch(`${simulator.url}/simulator/transactions`)).json()) as { data: SimulatedTransaction[] };
    const settlementOf = (id: string) => data.find((transaction) => transaction.transactionId === id)?.settlementId;
    expect(settlementOf(sale.transactionId)).toBe(settlementId);
    expect(settlementOf(open.transactionId)).toBeNull();
  });
});
