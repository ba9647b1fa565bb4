import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type ProjectionRunners, startProjector } from "../../src/projections/projector.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, testConfig, type TestService } from "../support/service.ts";

// The projector is started beside the API on the same database with an event store of its own,
// so no append of the API wakes it: it hears of them as another process would, by polling.
describe.each(testDatabaseTargets())("the projections in a projector of their own, on %s", (target) => {
  let api: TestService;
  let projector: ProjectionRunners;
  beforeAll(async () => {
    api = await startTestService(target, {}, { projections: "elsewhere" });
    projector = await startProjector(testConfig(api.database.url), createLogger("silent"), {
      ...api.database,
      close: async () => {},
    });
  });
  afterAll(async () => {
    await projector.stop();
    await api.stop();
  });

  it("each read that follows a client's write sees it: client, host configuration, sale, refund, history", async () => {
    const client = await api.createClient("Elsewhere");
    const created = await api.request("POST", "/v1/host-configurations/processor_a", {
      body: { ...validBodies.processor_a, clientId: client.clientId },
    });
    expect(created.status, created.text).toBe(201);
    const sale = await api.request("POST", "/v1/transactions/sale", {
      key: client.key,
      body: { processor: "processor_a", amount: 1500, currency: "USD", userId: "u1", card: approvedCard },
    });
    expect(sale.status, sale.text).toBe(201);
    const id = String(sale.body.id);

    expect(await api.request("GET", `/v1/transactions/${id}`, { key: client.key })).toMatchObject({
      status: 200,
      body: { id, status: "approved", amount: 1500 },
    });
    const history = await api.request("GET", "/v1/transactions?userId=u1", { key: client.key });
    expect(history.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([id]);
    // The refund finds its parent sale through the read model.
    expect(
      await api.request("POST", "/v1/transactions/refund", { key: client.key, body: { transactionId: id, amount: 100 } }),
    ).toMatchObject({ status: 201, body: { type: "refund", parentTransactionId: id } });
  });
});
