import { describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService } from "../support/service.ts";

// Needs the simulator's card 4000000000000424 (API.md): held like 0408, its first two inquiries
// answer "not found", later ones approved.
for (const target of testDatabaseTargets()) {
  describe(`a processor that does not know a transaction yet (${target})`, { timeout: 90_000 }, () => {
    it("a sale on card 4000000000000424 (first two inquiries not found) ends approved", async () => {
      const api = await startTestService(target, { PENDING_RESOLVER_INTERVAL_MS: "50" });
      try {
        const client = await api.createClient();
        const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: { ...validBodies.processor_a, clientId: client.clientId },
        });
        expect(configured.status).toBe(201);
        const sale = await api.request("POST", "/v1/transactions/sale", {
          key: client.key,
          body: {
            processor: "processor_a",
            amount: 4200,
            currency: "USD",
            userId: "user_1",
            card: { number: "4000000000000424", expMonth: 12, expYear: 2030, cvc: "123" },
          },
        });
        expect(sale.status).toBe(504);
        const id = sale.body.transaction.id;
        await vi.waitFor(
          async () => {
            const read = await api.request("GET", `/v1/transactions/${id}`, { key: client.key });
            expect(read.body.status).toBe("approved");
          },
          { timeout: 30_000, interval: 100 },
        );
      } finally {
        await api.stop();
      }
    });
  });
}
