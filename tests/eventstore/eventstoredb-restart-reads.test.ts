import { afterEach, describe, expect, it } from "vitest";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { everyProcessorAt, startTestService, type TestService } from "../support/service.ts";
import { whileProjectionStalled } from "../support/stalled-projection.ts";
import { FakeServer } from "./fake-eventstoredb-client.ts";

/** How long after the restart the read model starts catching up: less than a read waits for it. */
const CATCH_UP_AFTER_MS = 1_000;

for (const target of testDatabaseTargets()) {
  describe(`reads right after a restart, events on EventStoreDB (fake server), read models on ${target}`, () => {
    let api: TestService | undefined;
    let simulator: Simulator | undefined;
    afterEach(async () => {
      await api?.stop();
      await simulator?.close();
    });

    it("a sale answered 201 and not yet projected reads 200, and is refunded, the moment the service is back", async () => {
      const server = new FakeServer();
      // The processor outlives the service's restart, as a real one does.
      simulator = await startSimulator();
      api = await startTestService(target, everyProcessorAt(simulator.url), { openStore: () => eventStoreOnClient(server.asClient()) });
      const client = await api.createClient();
      const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      expect(created.status).toBe(201);
      // The transactions read model stands still from before the sale: a stop waits 5 s at most for
      // the projection to apply what was answered, and this one gives up, as a stop killed 3 s after
      // SIGTERM does. The service comes back to a read model that catches up a second later.
      let sale: Awaited<ReturnType<TestService["request"]>> | undefined;
      let answers: Promise<Awaited<ReturnType<TestService["request"]>>[]> | undefined;
      await whileProjectionStalled(api.database.db, "transactions", async () => {
        sale = await api!.request("POST", "/v1/transactions/sale", {
          key: client.key,
          body: { processor: "processor_a", amount: 700, currency: "USD", userId: "u1", card: approvedCard },
        });
        expect(sale.status).toBe(201);
        await api!.restart();
        const projected = await api!.database.db.selectFrom("transactions").select("transaction_id").where("transaction_id", "=", sale.body.id).execute();
        expect(projected).toEqual([]);
        answers = Promise.all([
          api!.request("GET", `/v1/transactions/${sale.body.id}`, { key: client.key }),
          api!.request("GET", `/v1/transactions/${sale.body.id}/events`, { key: client.key }),
          api!.request("POST", "/v1/transactions/refund", { key: client.key, body: { transactionId: sale.body.id, amount: 100 } }),
        ]);
        await new Promise((resolve) => setTimeout(resolve, CATCH_UP_AFTER_MS));
      });
      const [read, events, refund] = await answers!;
      expect(read, read!.text).toMatchObject({ status: 200, body: { id: sale!.body.id, status: "approved", amount: 700 } });
      expect(events!.status, events!.text).toBe(200);
      expect(refund, refund!.text).toMatchObject({ status: 201, body: { parentTransactionId: sale!.body.id, amount: 100 } });
    }, 30_000);
  });
}
