import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, type TestService } from "../support/service.ts";

const timeoutCard = { ...approvedCard, number: "4000000000000408" };

for (const target of testDatabaseTargets()) {
  describe(`GET /v1/operations/status, on ${target}`, () => {
    let api: TestService;
    let client: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      // The resolver waits a minute before it asks, so the pending transaction stays pending while the test looks.
      api = await startTestService(target, { PENDING_RESOLVER_INTERVAL_MS: "60000" });
      client = await api.createClient();
      const configuration = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configuration.status, configuration.text).toBe(201);
    });
    afterAll(() => api?.stop());

    it("says how far each projection trails, what is pending and for how long, and what the resolver owes", async () => {
      const pending = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: timeoutCard },
      });
      expect(pending.status, pending.text).toBe(504);

      // The sale's 504 does not wait for the read model, which the status reads: it follows.
      const body = await vi.waitFor(
        async () => {
          const status = await api.request("GET", "/v1/operations/status");
          expect(status.status, status.text).toBe(200);
          expect(status.body.pending.byAge["<1m"]).toBe(1);
          return status.body;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(Date.parse(body.checkedAt)).not.toBeNaN();
      expect(body.projections.map((lag: { projection: string }) => lag.projection)).toEqual(
        expect.arrayContaining(["transactions", "clients", "settlements"]),
      );
      for (const lag of body.projections) {
        expect(lag.positionsBehind).toMatch(/^\d+$/);
        expect(lag.secondsBehind).toBeGreaterThanOrEqual(0);
      }
      expect(body.pending.byAge["<1m"]).toBe(1);
      expect(body.pending.oldestSeconds).toBeLessThan(60);
      expect(body.resolver.owed).toEqual({ inquire: 1, reverse: 0, watch: 0 });
      // Its only pass so far, at start, found nothing to do.
      expect(body.resolver.lastPass).toBeNull();
      expect(body.jobs.map((job: { name: string }) => job.name)).toContain("pending-resolver");
      expect(body.webhooks).toEqual({ pending: 0, oldestSeconds: 0 });
      expect(body.settlements).toEqual({ mismatched: 0 });
    });

    it("is the admin's: a client key is forbidden", async () => {
      const answer = await api.request("GET", "/v1/operations/status", { key: client.key });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("forbidden");
    });
  });

  describe(`GET /v1/operations/status's last resolver pass, on ${target}`, () => {
    let api: TestService;
    let client: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      api = await startTestService(target, { PENDING_RESOLVER_INTERVAL_MS: "50" });
      client = await api.createClient();
      const configuration = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configuration.status, configuration.text).toBe(201);
    });
    afterAll(() => api?.stop());

    it("counts what the resolver's most recent pass that did anything recorded: the timed-out sale it found approved", async () => {
      const pending = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: timeoutCard },
      });
      expect(pending.status, pending.text).toBe(504);

      const lastPass = await vi.waitFor(
        async () => {
          const status = await api.request("GET", "/v1/operations/status");
          expect(status.body.resolver.lastPass).not.toBeNull();
          return status.body.resolver.lastPass;
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(lastPass.counts).toEqual({
        approved: 1,
        declined: 0,
        failed: 0,
        approved_late: 0,
        reversed: 0,
        reversal_refused: 0,
        still_pending: 0,
        errored: 0,
      });
      expect(Date.parse(lastPass.at)).toBeGreaterThan(Date.parse(pending.body.transaction.createdAt));
      // The transaction's view follows once the projection has applied the approval.
      await vi.waitFor(async () => {
        const transaction = await api.request("GET", `/v1/transactions/${pending.body.transaction.id}`, { key: client.key });
        expect(transaction.body.status).toBe("approved");
      });
    });
  });
}
