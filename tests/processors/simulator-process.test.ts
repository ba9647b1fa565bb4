import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { createConnectors } from "../../src/processors/connectors.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import type { SimulatedTransaction } from "../../src/processors/simulator/ledger.ts";
import { startSimulatorProcess } from "../support/process.ts";
import { hostConfiguration } from "./host-configuration.ts";
import { Secret } from "../../src/domain/secret.ts";

const connectorAt = (url: string) =>
  createConnectors({
    baseUrls: { processor_a: url, processor_b: url, processor_c: url, processor_d: url },
    http: createHttpClient({ timeoutMs: 5_000 }),
  }).processor_a;

const sale = () => ({
  operation: "sale" as const,
  transactionId: randomUUID(),
  amount: 1099,
  currency: "USD",
  card: { number: new Secret("4242424242424242"), expMonth: 12, expYear: 2030, cvc: new Secret("123") },
  hostConfiguration: hostConfiguration("processor_a"),
});

it("runs as a process of its own (npm run simulator): prints its URL, answers, exits 0 on SIGTERM", async () => {
  const simulator = await startSimulatorProcess();
  try {
    expect(await connectorAt(simulator.url).submit(sale())).toMatchObject({ kind: "approved", code: "00" });
  } finally {
    expect(await simulator.stop()).toBe(0);
  }
}, 60_000);

it("remembers what it answered across a restart on the same SIMULATOR_DATA_DIR", async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "simulator-process-"));
  try {
    const payment = sale();
    const first = await startSimulatorProcess({ SIMULATOR_DATA_DIR: dataDir });
    let reference: string | undefined;
    try {
      const outcome = await connectorAt(first.url).submit(payment);
      expect(outcome.kind).toBe("approved");
      if (outcome.kind === "approved") reference = outcome.reference;
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startSimulatorProcess({ SIMULATOR_DATA_DIR: dataDir });
    try {
      const { transactionId, hostConfiguration: configuration } = payment;
      expect(await connectorAt(second.url).inquire({ transactionId, hostConfiguration: configuration })).toMatchObject({
        kind: "approved",
        reference,
      });
      const listed = (await (await fetch(`${second.url}/simulator/transactions?approved=true`)).json()) as {
        data: SimulatedTransaction[];
      };
      expect(listed.data).toMatchObject([{ transactionId, operation: "sale", amount: 1099, reference, voided: false }]);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}, 120_000);
