import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnvironment } from "../support/environment.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, type TestService } from "../support/service.ts";

// Projections read the log only below the oldest open writing transaction, so an open one
// holds them back: that needs a second connection to a PostgreSQL server.
const skip = testEnvironment.databaseUrl ? undefined : "holding projections back needs DATABASE_URL (PGlite serves one connection)";
if (skip) console.warn(`SKIPPED read-your-writes while projections lag: ${skip}`);

describe.skipIf(skip)("read-your-writes while the projections lag, on postgres", () => {
  let api: TestService;
  let client: { clientId: string; key: string };
  let other: { key: string };
  let hostConfigurationId: string;
  beforeAll(async () => {
    api = await startTestService("postgres");
    client = await api.createClient("Reader");
    other = await api.createClient("Other");
    const created = await api.request("POST", "/v1/host-configurations/processor_a", {
      body: { ...validBodies.processor_a, clientId: client.clientId },
    });
    hostConfigurationId = String(created.body.id);
  });
  afterAll(() => api.stop());

  /** Runs `body` while an open writing transaction keeps every projection from moving on. */
  async function withProjectionsHeld(body: (release: () => Promise<void>) => Promise<void>) {
    const blocker = new pg.Client({ connectionString: api.database.url });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query("select pg_current_xact_id()");
      await body(async () => {
        await blocker.query("commit");
      });
    } finally {
      await blocker.end();
    }
  }

  /** Whether `promise` settles within `ms`. */
  const settlesWithin = (promise: Promise<unknown>, ms: number) =>
    Promise.race([promise.then(() => true), sleep(ms).then(() => false)]);

  it("a POST answers at once; the client's reads that follow wait until the read model shows it", async () => {
    await withProjectionsHeld(async (release) => {
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 1500, currency: "USD", userId: "u1", card: approvedCard },
      });
      expect(sale.status).toBe(201);
      const id = String(sale.body.id);
      // A follow-up of a payment's first transaction reads its parent from the log: it waits for no read model.
      const refund = await api.request("POST", "/v1/transactions/refund", {
        key: client.key,
        body: { transactionId: id, amount: 100 },
      });
      expect(refund).toMatchObject({ status: 201, body: { type: "refund", parentTransactionId: id } });

      const byId = api.request("GET", `/v1/transactions/${id}`, { key: client.key });
      const history = api.request("GET", "/v1/transactions?userId=u1", { key: client.key });
      const stream = api.request("GET", `/v1/transactions/${id}/events`, { key: client.key });
      expect(await settlesWithin(Promise.race([byId, history, stream]), 400)).toBe(false);

      // Another client has nothing waiting, so its reads answer while the projections lag.
      const othersHistory = await api.request("GET", "/v1/transactions", { key: other.key });
      expect(othersHistory.body.data).toEqual([]);

      await release();
      expect(await byId).toMatchObject({ status: 200, body: { id, status: "approved", amount: 1500, refundedAmount: 100 } });
      expect((await history).body.data.map((t: { id: string }) => t.id)).toEqual([refund.body.id, id]);
      expect((await stream).status).toBe(200);
    });
  });

  it("a settlement batch closed by hand: the client's reads of batches that follow wait until the read model shows it", async () => {
    const sale = await api.request("POST", "/v1/transactions/sale", {
      key: client.key,
      body: { processor: "processor_a", amount: 2500, currency: "USD", userId: "u2", card: approvedCard },
    });
    expect(sale.status).toBe(201);
    expect((await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: client.key })).status).toBe(200);
    await withProjectionsHeld(async (release) => {
      const closed = await api.request("POST", `/v1/host-configurations/processor_a/${hostConfigurationId}/settle`, { body: {} });
      expect(closed.status, closed.text).toBe(201);
      expect(closed.body.transactionCount).toBeGreaterThan(0);

      const byId = api.request("GET", `/v1/settlements/${closed.body.id}`, { key: client.key });
      const list = api.request("GET", "/v1/settlements", { key: client.key });
      const byAdmin = api.request("GET", `/v1/settlements/${closed.body.id}`);
      expect(await settlesWithin(Promise.race([byId, list, byAdmin]), 400)).toBe(false);

      // Another client has nothing waiting, so its reads answer while the projections lag.
      expect((await api.request("GET", "/v1/settlements", { key: other.key })).body.data).toEqual([]);

      await release();
      expect(await byId).toMatchObject({ status: 200, body: closed.body });
      expect((await list).body.data).toEqual([closed.body]);
      expect(await byAdmin).toMatchObject({ status: 200, body: closed.body });
    });
  });
});
