import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRegistries, type Registries } from "../../src/commands/context.ts";
import { createHostConfiguration, type HostConfigurationInput } from "../../src/commands/host-configurations.ts";
import { registerClient } from "../../src/commands/clients.ts";
import { execute } from "../../src/commands/execute.ts";
import { closeSettlement, type SettlementContext } from "../../src/commands/settlements.ts";
import { createSecretBox } from "../../src/crypto/secrets.ts";
import { hostConfigurationSchemas, type Processor } from "../../src/domain/host-configurations/schemas.ts";
import { paymentDecider, paymentStreamId } from "../../src/domain/payments/index.ts";
import { settlementStreamId } from "../../src/domain/settlements/events.ts";
import { totalsOf } from "../../src/domain/settlements/totals.ts";
import { AppendTooLargeError } from "../../src/eventstore/errors.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { newId } from "../../src/ids.ts";
import { createLogger } from "../../src/logger.ts";
import type { ProcessorConnector } from "../../src/processors/port.ts";
import { ProjectionRunner } from "../../src/projections/runner.ts";
import { settlementsProjection } from "../../src/projections/settlements/settlements-projection.ts";
import { transactionsProjection } from "../../src/projections/transactions/transactions-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { FakeServer, MAX_APPEND_SIZE } from "./fake-eventstoredb-client.ts";

/** Sales in the batch: their candidates take over 1 MiB of JSON, more than one EventStoreDB append holds. */
const SALES = 12_000;
const AMOUNT = 100;

describe("an EventStoreDB append over the server's maximum size", () => {
  it("is refused whole, as the live server refuses it, and the adapter says so with AppendTooLargeError", async () => {
    const store = eventStoreOnClient(new FakeServer().asClient());
    const tooLarge = { type: "Big.v1", data: { filler: "x".repeat(MAX_APPEND_SIZE) } };
    const refused = store.append("big-1", [tooLarge], "no_stream");
    await expect(refused).rejects.toBeInstanceOf(AppendTooLargeError);
    await expect(refused).rejects.toThrow(/larger than the event store accepts \(1048576 bytes\)/);
    expect(await store.readStream("big-1")).toEqual([]);
  });
});

for (const target of testDatabaseTargets()) {
  describe(`a settlement batch over EventStoreDB, read models on ${target}`, () => {
    let database: TestDatabase;
    let store: EventStore;
    let runners: ProjectionRunner[];
    let registries: Registries;

    beforeEach(async () => {
      database = await openTestDatabase(target);
      store = eventStoreOnClient(new FakeServer().asClient());
      registries = createRegistries(store, database.db);
      const logger = createLogger("silent");
      const { readYourWrites } = registries;
      runners = [transactionsProjection, settlementsProjection].map(
        (projection) => new ProjectionRunner({ db: database.db, store, projection, logger, readYourWrites }),
      );
      for (const runner of runners) runner.start();
    });
    afterEach(async () => {
      for (const runner of runners) await runner.stop();
      await database.close();
    });

    it(`closes a batch of ${SALES} sales, whose candidates exceed 1 MiB, matched, in appends the server accepts`, async () => {
      const secrets = createSecretBox({ activeKeyId: "test", keys: { test: Buffer.alloc(32, 7) } });
      const metadata = { actor: { role: "system" } };
      const now = () => new Date();
      const registered = await registerClient({ db: database.db, store, registries, now, metadata }, "Acme");
      if (!registered.ok) throw new Error(registered.detail);
      const { clientId } = registered.value;
      const { credentials, ...configuration } = hostConfigurationSchemas.processor_a.create.parse({ ...validBodies.processor_a, clientId });
      const input = { processor: "processor_a", configuration, credentials } as HostConfigurationInput;
      const created = await createHostConfiguration({ db: database.db, store, registries, now, metadata }, secrets, input);
      if (!created.ok) throw new Error(created.detail);
      const hostConfigurationId = created.value.view.id;

      const saleIds: string[] = [];
      for (let n = 0; n < SALES; n += 1) {
        const transactionId = newId();
        saleIds.push(transactionId);
        const streamId = paymentStreamId(transactionId);
        const initiated = await execute(store, paymentDecider, streamId, {
          type: "InitiateTransaction",
          transactionType: "sale",
          transactionId,
          amount: AMOUNT,
          currency: "USD",
          clientId,
          userId: "u1",
          processor: "processor_a",
          hostConfigurationId,
          hostConfigurationVersion: 1,
          card: { brand: "visa", bin: "424242", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "f" },
          reference: null,
          metadata: {},
          now: now().toISOString(),
        }, metadata);
        const approved = { code: "00", message: "Approved", authorizationCode: "A1", reference: `r${n}` };
        await execute(store, paymentDecider, streamId, { type: "RecordOutcome", transactionId, outcome: { status: "approved", processorResponse: approved }, now: now().toISOString() }, metadata, { known: initiated.ok ? initiated : undefined });
      }
      await vi.waitFor(
        async () => {
          const row = await database.db.selectFrom("transactions").select((select) => select.fn.countAll<string>().as("count")).where("awaiting_settlement", "=", true).executeTakeFirstOrThrow();
          expect(Number(row.count)).toBe(SALES);
        },
        { timeout: 60_000, interval: 200 },
      );
      const candidatesJson = JSON.stringify(saleIds.map((transactionId) => ({ transactionId, paymentId: transactionId })));
      expect(Buffer.byteLength(candidatesJson)).toBeGreaterThan(MAX_APPEND_SIZE);

      // The processor settles every transaction it is sent.
      const closeBatch: ProcessorConnector["closeBatch"] = async ({ transactionIds }) => ({
        kind: "closed",
        transactionIds: [...transactionIds],
        totals: totalsOf(transactionIds.map(() => ({ type: "sale" as const, currency: "USD", amount: AMOUNT }))),
      });
      const notUsed = async (): Promise<never> => {
        throw new Error("Only batches are closed here.");
      };
      const connector = (processor: Processor): ProcessorConnector => ({ processor, submit: notUsed, inquire: notUsed, closeBatch });
      const context: SettlementContext = {
        db: database.db,
        store,
        registries,
        now,
        secrets,
        connectors: { processor_a: connector("processor_a"), processor_b: connector("processor_b"), processor_c: connector("processor_c"), processor_d: connector("processor_d") },
        logger: createLogger("silent"),
        metadata,
      };
      const settlementId = newId();
      const closed = await closeSettlement(
        context,
        { settlementId, hostConfigurationId, clientId, processor: "processor_a", localDate: null, cutoff: now() },
        { staleAfterMs: 60_000 },
      );
      expect(closed).toMatchObject({ kind: "batch", settlement: { id: settlementId, status: "matched", transactionCount: SALES } });
      if (closed.kind !== "batch") return;
      expect(closed.settlement.totals).toEqual([{ currency: "USD", salesCount: SALES, salesAmount: SALES * AMOUNT, refundsCount: 0, refundsAmount: 0, netAmount: SALES * AMOUNT }]);
      const batchEvents = await store.readStream(settlementStreamId(settlementId));
      const largest = Math.max(...batchEvents.map((event) => Buffer.byteLength(JSON.stringify(event.data))));
      expect(largest).toBeLessThan(100 * 1024);
    }, 240_000);
  });
}
