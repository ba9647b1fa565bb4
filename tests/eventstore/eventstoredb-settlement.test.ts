import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRegistries, type Registries } from "../../src/commands/context.ts";
import { createHostConfiguration, type HostConfigurationInput } from "../../src/commands/host-configurations.ts";
import { registerClient } from "../../src/commands/clients.ts";
import { payments } from "../../src/commands/streams.ts";
import { closeSettlement, type SettlementContext, type SettlementResult } from "../../src/commands/settlements/index.ts";
import { createSecretBox } from "../../src/crypto/secrets.ts";
import { hostConfigurationSchemas, type Processor } from "../../src/domain/host-configurations/schemas.ts";
import { settlementClaimStreamId } from "../../src/domain/settlements/claim.ts";
import { settlementStreamId } from "../../src/domain/settlements/events.ts";
import { totalsOf } from "../../src/domain/settlements/totals.ts";
import { AppendTooLargeError } from "../../src/eventstore/errors.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { newId } from "../../src/ids.ts";
import { createLogger } from "../../src/logger.ts";
import type { ProcessorConnector } from "../../src/processors/port.ts";
import { enabledConfigurationsBefore } from "../../src/projections/host-configurations/enabled-before.ts";
import { ReadYourWrites } from "../../src/projections/read-your-writes.ts";
import { ProjectionRunner } from "../../src/projections/runner.ts";
import { settlementCandidatesOf } from "../../src/projections/transactions/settlement-candidates.ts";
import { settlementsProjection } from "../../src/projections/settlements/settlements-projection.ts";
import { transactionsProjection } from "../../src/projections/transactions/transactions-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { FakeServer, MAX_APPEND_SIZE } from "./fake-eventstoredb-client.ts";

/** Sales in the large batch: their candidates take over 1 MiB of JSON, more than one EventStoreDB append holds. */
const SALES = 12_000;
const AMOUNT = 100;
const SALES_AT_ONCE = 20;

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

/** The event stores a batch is closed on: EventStoreDB through its fake server, and PostgreSQL (the target's database). */
const eventStores = {
  "EventStoreDB (fake server)": (server: FakeServer) => eventStoreOnClient(server.asClient()),
  PostgreSQL: (_server: FakeServer, database: TestDatabase) => new PostgresEventStore(database.db),
} satisfies Record<string, (server: FakeServer, database: TestDatabase) => EventStore>;

for (const target of testDatabaseTargets()) {
  for (const [storeName, openStore] of Object.entries(eventStores)) {
    describe(`a settlement batch, events on ${storeName}, read models on ${target}`, () => {
      let database: TestDatabase;
      let server: FakeServer;
      let store: EventStore;
      let runners: ProjectionRunner[];
      let registries: Registries;
      let context: SettlementContext;
      let clientId: string;
      let hostConfigurationId: string;
      const metadata = { actor: { role: "system" } };
      const now = () => new Date();

      beforeEach(async () => {
        database = await openTestDatabase(target);
        server = new FakeServer();
        store = openStore(server, database);
        registries = createRegistries(store);
        const logger = createLogger("silent");
        const readYourWrites = new ReadYourWrites();
        runners = [transactionsProjection, settlementsProjection].map(
          (projection) => new ProjectionRunner({ db: database.db, store, projection, logger, readYourWrites }),
        );
        for (const runner of runners) runner.start();
        const secrets = createSecretBox({ activeKeyId: "test", keys: { test: Buffer.alloc(32, 7) } });
        const registered = await registerClient({ store, registries, now, metadata }, newId(), "Acme");
        if (!registered.ok) throw new Error(registered.detail);
        clientId = registered.value.clientId;
        const { credentials, ...configuration } = hostConfigurationSchemas.processor_a.create.parse({ ...validBodies.processor_a, clientId });
        const input = { processor: "processor_a", configuration, credentials } as HostConfigurationInput;
        const created = await createHostConfiguration({ store, registries, now, metadata, enabledConfigurationsBefore: enabledConfigurationsBefore(database.db) }, secrets, newId(), input);
        if (!created.ok) throw new Error(created.detail);
        hostConfigurationId = created.value.view.id;
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
        context = {
          store,
          registries,
          now,
          secrets,
          connectors: { processor_a: connector("processor_a"), processor_b: connector("processor_b"), processor_c: connector("processor_c"), processor_d: connector("processor_d") },
          logger: createLogger("silent"),
          metadata,
          settlementCandidates: settlementCandidatesOf(database.db, store),
        };
      });
      afterEach(async () => {
        for (const runner of runners) await runner.stop();
        await database.close();
      });

      /** `count` approved sales of the host configuration, awaiting settlement in the read model; their ids. */
      async function approvedSales(count: number): Promise<string[]> {
        const saleIds = Array.from({ length: count }, () => newId());
        const sell = async (transactionId: string, n: number) => {
          const initiated = await payments.handle({ store, registries, metadata }, transactionId, {
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
            card: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "f" },
            reference: null,
            metadata: {},
            now: now().toISOString(),
          });
          const approved = { code: "00", message: "Approved", authorizationCode: "A1", reference: `r${n}` };
          const outcome = { status: "approved", processorResponse: approved } as const;
          await payments.handle({ store, registries, metadata }, transactionId, { type: "RecordOutcome", transactionId, outcome, now: now().toISOString() }, initiated.ok ? { known: initiated } : {});
        };
        // A few sales at a time, as payment traffic comes: PostgreSQL commits their appends together.
        for (let start = 0; start < count; start += SALES_AT_ONCE) {
          await Promise.all(saleIds.slice(start, start + SALES_AT_ONCE).map((transactionId, index) => sell(transactionId, start + index)));
        }
        await vi.waitFor(
          async () => {
            const row = await database.db.selectFrom("transactions").select((select) => select.fn.countAll<string>().as("count")).where("awaiting_settlement", "=", true).executeTakeFirstOrThrow();
            expect(Number(row.count)).toBe(count);
          },
          { timeout: 60_000, interval: 200 },
        );
        return saleIds;
      }

      const close = (settlementId = newId()): Promise<SettlementResult> =>
        closeSettlement(
          context,
          { settlementId, hostConfigurationId, clientId, processor: "processor_a", localDate: null, cutoff: now() },
          { staleAfterMs: 60_000 },
        );

      it(`closes a batch of ${SALES} sales, whose candidates exceed 1 MiB, matched, in appends the server accepts`, async (test) => {
        if (storeName === "PostgreSQL" && target === "pglite") {
          const reason = "PGlite takes one statement at a time: 24,000 appends and their projection take minutes there; this runs with DATABASE_URL";
          console.warn(`SKIPPED a batch of ${SALES} on the PostgreSQL event store on PGlite: ${reason}`);
          test.skip(reason);
        }
        const saleIds = await approvedSales(SALES);
        const candidatesJson = JSON.stringify(saleIds.map((transactionId) => ({ transactionId, paymentId: transactionId })));
        expect(Buffer.byteLength(candidatesJson)).toBeGreaterThan(MAX_APPEND_SIZE);

        const settlementId = newId();
        const closed = await close(settlementId);
        expect(closed).toMatchObject({ kind: "batch", settlement: { id: settlementId, status: "matched", transactionCount: SALES } });
        if (closed.kind !== "batch") return;
        expect(closed.settlement.totals).toEqual([{ currency: "USD", salesCount: SALES, salesAmount: SALES * AMOUNT, refundsCount: 0, refundsAmount: 0, netAmount: SALES * AMOUNT }]);
        const batchEvents = await store.readStream(settlementStreamId(settlementId));
        const largest = Math.max(...batchEvents.map((event) => Buffer.byteLength(JSON.stringify(event.data))));
        expect(largest).toBeLessThan(100 * 1024);
      }, 300_000);

      if (storeName !== "PostgreSQL") {
        it("an append refused for its size fails the batch with AppendTooLargeError, and the next close runs at once", async () => {
          await approvedSales(300);
          // A server set to take less than a chunk of 300 candidates (about 29 KB).
          server.maxAppendSize = 20_000;
          const refusedId = newId();
          await expect(close(refusedId)).rejects.toThrow(AppendTooLargeError);
          const refused = await store.readStream(settlementStreamId(refusedId));
          expect(refused.at(-1)).toMatchObject({ type: "SettlementFailed.v1", data: { message: expect.stringMatching(/larger than the event store accepts \(20000 bytes\)/) } });
          const [claim] = await store.readStream(settlementClaimStreamId(hostConfigurationId), { direction: "backwards", maxCount: 1 });
          expect(claim).toMatchObject({ type: "SettlementReleased.v1", data: { settlementId: refusedId } });

          // Its operator raises the limit: the next close is not held back by the refused one.
          server.maxAppendSize = MAX_APPEND_SIZE;
          const closed = await close();
          expect(closed).toMatchObject({ kind: "batch", settlement: { status: "matched", transactionCount: 300 } });
        }, 120_000);
      }
    });
  }
}
