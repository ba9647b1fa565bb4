import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLedgerClient, type LedgerClient, type Problem, type Transaction } from "../../packages/client/src/index.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

/** The API driven through @payment-ledger/client (openapi-fetch on the generated types), as an integrator would. */
for (const target of testDatabaseTargets()) {
  describe(`the typed client on ${target}`, () => {
    let api: TestService;
    let admin: LedgerClient;

    beforeAll(async () => {
      api = await startTestService(target);
      admin = createLedgerClient({ baseUrl: api.url, apiKey: TEST_ADMIN_KEY });
    });
    afterAll(() => api.stop());

    it("onboards a client, sells, refunds in part, reads history and gets a decline as a typed problem", async () => {
      const client = await admin.POST("/v1/clients", { body: { name: "Typed Acme" } });
      expect(client.response.status).toBe(201);
      const clientId = client.data!.id;
      const issued = await admin.POST("/v1/clients/{clientId}/api-keys", { params: { path: { clientId } }, body: {} });
      expect(issued.data?.key).toMatch(/^ldgr_sk_/);

      const configuration = await admin.POST("/v1/host-configurations/processor_b", {
        body: {
          clientId,
          name: "Typed store",
          enabled: true,
          merchant: { merchantId: "0000MERCH01", groupId: "00G01", tppId: "RSO001" },
          company: {
            name: "Typed Acme Corp",
            phone: "555-1234567",
            address: { line1: "1 Main St", city: "Springfield", state: "IL", postalCode: "62701", country: "US" },
            location: { latitude: 39.78, longitude: -89.65 },
          },
          settings: { settlementTime: "23:30", timeZone: "America/Chicago", terminalId: "00000001", mcc: "5812" },
          credentials: { datawireId: "00012345678901234567" },
        },
      });
      expect(configuration.response.status).toBe(201);
      expect(configuration.response.headers.get("etag")).toBe('"1"');
      expect(configuration.data).toMatchObject({ processor: "processor_b", clientId, isDefault: true, credentials: { configured: true } });

      const ledger = createLedgerClient({ baseUrl: api.url, apiKey: issued.data!.key! });
      const idempotency = { header: { "Idempotency-Key": `typed-order-${clientId}` } };
      const payment = {
        processor: "processor_b" as const,
        amount: 2500,
        currency: "USD",
        userId: "user_typed",
        reference: "typed-order-1",
        card: approvedCard,
      };
      const sale = await ledger.POST("/v1/transactions/sale", { params: idempotency, body: payment });
      expect(sale.response.status).toBe(201);
      expect(sale.data).toMatchObject({ type: "sale", status: "approved", amount: 2500, hostConfigurationId: configuration.data!.id });
      const replay = await ledger.POST("/v1/transactions/sale", { params: idempotency, body: payment });
      expect(replay.response.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.data?.id).toBe(sale.data!.id);

      const refund = await ledger.POST("/v1/transactions/refund", { body: { transactionId: sale.data!.id, amount: 1000, reason: "one item returned" } });
      expect(refund.response.status).toBe(201);
      expect(refund.data).toMatchObject({ type: "refund", amount: 1000, parentTransactionId: sale.data!.id });
      const refunded = await ledger.GET("/v1/transactions/{id}", { params: { path: { id: sale.data!.id } } });
      expect(refunded.data).toMatchObject({ refundedAmount: 1000 });

      const declined = await ledger.POST("/v1/transactions/sale", {
        body: { ...payment, reference: "typed-order-2", card: { ...approvedCard, number: "4000000000009995" } },
      });
      expect(declined.response.status).toBe(402);
      expect(declined.response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const problem: Problem | undefined = declined.error;
      expect(problem?.code).toBe("insufficient_funds");
      const recorded: Transaction | undefined = problem?.transaction;
      expect(recorded).toMatchObject({ status: "declined", declineCode: "insufficient_funds", amount: 2500 });

      const refunds = await ledger.GET("/v1/transactions", { params: { query: { type: "refund", userId: "user_typed" } } });
      expect(refunds.data?.data.map((transaction) => transaction.id)).toEqual([refund.data!.id]);
      const declines = await ledger.GET("/v1/transactions", { params: { query: { status: "declined", limit: 5 } } });
      expect(declines.data).toEqual({ data: [recorded], nextCursor: null });

      const forbidden = await admin.POST("/v1/transactions/sale", { body: payment });
      expect(forbidden.error).toMatchObject({ status: 403, code: "forbidden" });
    });
  });
}
