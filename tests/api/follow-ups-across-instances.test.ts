import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import type { Service } from "../../src/service.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { apiRequest, everyProcessorAt, startTwoInstances, type TestService, type TwoInstances } from "../support/service.ts";

const ROUNDS = 20;

/**
 * Two instances on one database behind a load balancer: a transaction answered by one is there for
 * the other at once, though the read model the other reads may not show it yet.
 */
for (const target of testDatabaseTargets()) {
  describe(`follow-ups across two instances on ${target}`, () => {
    let simulator: Simulator;
    let instances: TwoInstances;
    let first: TestService;
    let second: Service;
    let key: string;

    beforeAll(async () => {
      simulator = await startSimulator();
      instances = await startTwoInstances(target, everyProcessorAt(simulator.url));
      ({ first, second } = instances);
      const client = await first.createClient();
      key = client.key;
      const created = await first.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await instances?.stop();
      await simulator?.close();
    });

    const post = (url: string, path: string, body: unknown) => apiRequest(url, "POST", `/v1/transactions/${path}`, { key, body });

    it(`authorize on one, capture on the other, then refund and void the capture at once on the first: ${ROUNDS} rounds, never 404`, async () => {
      const statuses: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const authorization = await post(first.url, "authorization", { processor: "processor_a", amount: 1000, currency: "USD", userId: "u1", card: approvedCard });
        expect(authorization.status).toBe(201);
        const capture = await post(second.url, "capture", { transactionId: authorization.body.id, amount: 600 });
        expect(capture.status).toBe(201);
        const [refund, voided] = await Promise.all([
          post(first.url, "refund", { transactionId: capture.body.id, amount: 100 }),
          post(first.url, "void", { transactionId: capture.body.id }),
        ]);
        statuses.push(refund.status, voided.status);
        // Whichever came first stands: a void of a refunded capture, or a refund of a voided one, is refused.
        const refused = refund.status === 201 ? voided : refund;
        expect([refund.status, voided.status]).toContain(201);
        expect(refused.body.code, refused.text).toBe("invalid_transaction_state");
      }
      expect(statuses.filter((status) => status === 404)).toEqual([]);
    }, 120_000);

    it("a transaction made on one instance reads at once on the other, its events too", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const sale = await post(first.url, "sale", { processor: "processor_a", amount: 500, currency: "USD", userId: "u1", card: approvedCard });
        expect(sale.status).toBe(201);
        const [read, events] = await Promise.all([
          apiRequest(second.url, "GET", `/v1/transactions/${sale.body.id}`, { key }),
          apiRequest(second.url, "GET", `/v1/transactions/${sale.body.id}/events`, { key }),
        ]);
        expect(read).toMatchObject({ status: 200, body: { id: sale.body.id } });
        // Found at once; its outcome, recorded a moment after its intent, may not be applied there yet.
        expect(["pending", "approved"]).toContain(read.body.status);
        expect(events.status).toBe(200);
      }
    }, 120_000);

    it("a transaction that does not exist is still 404", async () => {
      const missing = await apiRequest(second.url, "GET", "/v1/transactions/0193a000-0000-7000-8000-000000000000", { key });
      expect(missing.status).toBe(404);
    });
  });
}
