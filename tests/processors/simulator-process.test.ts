import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { createConnectors } from "../../src/processors/connectors.ts";
import { startSimulatorProcess } from "../support/process.ts";
import { hostConfiguration } from "./host-configuration.ts";

it("runs as a process of its own (npm run simulator): prints its URL, answers, exits 0 on SIGTERM", async () => {
  const simulator = await startSimulatorProcess();
  try {
    const url = simulator.url;
    const connector = createConnectors({
      baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url },
      timeoutMs: 5_000,
    }).processor_a;
    const outcome = await connector.submit({
      operation: "sale",
      transactionId: randomUUID(),
      amount: 1099,
      currency: "USD",
      card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
      hostConfiguration: hostConfiguration("processor_a"),
    });
    expect(outcome).toMatchObject({ kind: "approved", code: "00" });
  } finally {
    expect(await simulator.stop()).toBe(0);
  }
}, 60_000);
