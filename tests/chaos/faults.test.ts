import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../bench/chaos/fault-proxy.ts";
import { voidRequest } from "../../bench/chaos/faults.ts";
import { type Processor, processors } from "../../src/domain/host-configurations/schemas.ts";
import { createConnectors } from "../../src/processors/connectors.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import type { Connectors, Operation, ProcessorRequest } from "../../src/processors/port.ts";
import { type Simulator, startSimulator } from "../../src/processors/simulator/server.ts";
import { hostConfiguration } from "../processors/host-configuration.ts";
import { Secret } from "../../src/domain/secret.ts";

/** The "processor drops voids" fault, on the real connectors' wire to the real simulator. */
describe("the fault that drops voids before they reach the processor", () => {
  let simulator: Simulator;
  let proxy: FaultProxy;
  let connectors: Connectors;

  beforeAll(async () => {
    simulator = await startSimulator({ host: "127.0.0.1", port: 0 });
    proxy = await startFaultProxy({ target: { host: "127.0.0.1", port: Number(new URL(simulator.url).port) } });
    const url = `http://${proxy.host}:${proxy.port}`;
    connectors = createConnectors({
      baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url },
      http: createHttpClient({ timeoutMs: 5_000 }),
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await simulator?.close();
  });

  const request = (processor: Processor, operation: Operation, parent?: { transactionId: string; reference: string }): ProcessorRequest => ({
    operation,
    transactionId: randomUUID(),
    amount: 1099,
    currency: "USD",
    hostConfiguration: hostConfiguration(processor),
    ...(parent ? { parentTransactionId: parent.transactionId, parentProcessorReference: parent.reference } : {}),
    ...(operation === "authorization" || operation === "sale" ? { card: { number: new Secret("4242424242424242"), expMonth: 12, expYear: 2030, cvc: new Secret("123") } } : {}),
  });

  async function approved(processor: Processor, submitted: ProcessorRequest) {
    const outcome = await connectors[processor].submit(submitted);
    if (outcome.kind !== "approved") throw new Error(`${processor} ${submitted.operation}: ${JSON.stringify(outcome)}`);
    return { transactionId: submitted.transactionId, reference: outcome.reference };
  }

  it.each(processors)("lets everything but a void through, and the void never reaches %s", async (processor) => {
    proxy.setMode({ kind: "drop_requests", matching: voidRequest });
    const droppedBefore = proxy.stats().dropped;
    const authorization = await approved(processor, request(processor, "authorization"));
    const capture = await approved(processor, request(processor, "capture", authorization));
    await approved(processor, request(processor, "refund", capture));
    const sale = await approved(processor, request(processor, "sale"));
    const inquiry = await connectors[processor].inquire({ transactionId: sale.transactionId, hostConfiguration: hostConfiguration(processor) });
    expect(inquiry.kind).toBe("approved");
    expect(proxy.stats().dropped).toBe(droppedBefore);

    const lostVoid = request(processor, "void", sale);
    expect(await connectors[processor].submit(lostVoid)).toMatchObject({ kind: "unknown" });
    expect(proxy.stats().dropped).toBe(droppedBefore + 1);
    expect(simulator.transactions().find((record) => record.transactionId === lostVoid.transactionId)).toBeUndefined();
    expect(simulator.transactions().find((record) => record.transactionId === sale.transactionId)?.voided).toBe(false);

    proxy.setMode({ kind: "pass" });
    await approved(processor, request(processor, "void", sale));
    expect(simulator.transactions().find((record) => record.transactionId === sale.transactionId)?.voided).toBe(true);
  });
});
