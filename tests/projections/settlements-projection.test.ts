import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { fold } from "../../src/domain/decider.ts";
import { settlementDecider } from "../../src/domain/settlements/decider.ts";
import { type BatchIdentity, type SettlementEvent, settlementStreamId } from "../../src/domain/settlements/events.ts";
import { totalsOf } from "../../src/domain/settlements/totals.ts";
import { type SettlementView, toSettlementView } from "../../src/domain/settlements/view.ts";
import { settlementsProjection } from "../../src/projections/settlements/settlements-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, idSequence, projectionSpec } from "../support/projection-spec.ts";

const saleIds = ["0190a8e2-0000-7000-8000-000000000001", "0190a8e2-0000-7000-8000-000000000002"];
const candidates = saleIds.map((transactionId) => ({ transactionId, paymentId: transactionId }));
const totals = totalsOf([
  { type: "sale", currency: "USD", amount: 1000 },
  { type: "sale", currency: "USD", amount: 2000 },
]);
const openedAt = "2026-06-11T04:31:00.000Z";
const closedAt = "2026-06-11T04:32:00.000Z";

const batchOf = (settlementId: string): BatchIdentity => ({
  settlementId,
  clientId: "0190a8e2-0000-7000-8000-00000000c001",
  processor: "processor_a",
  hostConfigurationId: "0190a8e2-0000-7000-8000-00000000d001",
  localDate: null,
  cutoff: "2026-06-11T04:30:00.000Z",
});

/** A batch in chunks, as the settlement decider records it. */
const chunked = (batch: BatchIdentity) => {
  const { settlementId } = batch;
  return {
    opened: { type: "SettlementOpened.v2", data: { ...batch, occurredAt: openedAt } } satisfies SettlementEvent,
    chunk: { type: "SettlementCandidatesRecorded.v1", data: { settlementId, candidates, occurredAt: openedAt } } satisfies SettlementEvent,
    sealed: { type: "SettlementSealed.v1", data: { settlementId, transactionCount: 2, occurredAt: openedAt } } satisfies SettlementEvent,
    closed: {
      type: "SettlementClosed.v2",
      data: { ...batch, transactionCount: 2, totals, processorTotals: [], status: "mismatched", occurredAt: closedAt },
    } satisfies SettlementEvent,
    failed: { type: "SettlementFailed.v1", data: { settlementId, message: "The processor refused the batch.", occurredAt: closedAt } } satisfies SettlementEvent,
  };
};

type BatchRead = { status: string; closedAt: string | null; view: unknown; transactions: string[] } | undefined;

/** The batch as the API reads it: its row, and the transactions its paged list keeps. */
function batchRead(settlementId: string) {
  return async (db: Kysely<Database>): Promise<BatchRead> => {
    const row = await db.selectFrom("settlements").select(["status", "closed_at", "view"]).where("settlement_id", "=", settlementId).executeTakeFirst();
    const transactions = await db
      .selectFrom("settlement_transactions")
      .select("transaction_id")
      .where("settlement_id", "=", settlementId)
      .orderBy("transaction_id")
      .execute();
    return row && { status: row.status, closedAt: row.closed_at?.toISOString() ?? null, view: row.view, transactions: transactions.map((t) => t.transaction_id) };
  };
}

/** What the read model holds of a batch with these events: the view their fold gives, and its status as a column. */
function shown(events: readonly SettlementEvent[], transactions: string[]): BatchRead {
  const state = fold(settlementDecider, events);
  if (state.status === "none") return undefined;
  const view: SettlementView = toSettlementView(state);
  return { status: view.status === "closing" ? "open" : view.status, closedAt: view.closedAt, view, transactions };
}

for (const target of testDatabaseTargets()) {
  describe(`the settlements read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given } = projectionSpec(settlementsProjection, () => database.db);
    const record = eventLog();
    // One database for the file: each test a batch of its own.
    const newBatchId = idSequence();
    const newBatch = () => {
      const batch = batchOf(newBatchId());
      return { batch, events: (...events: SettlementEvent[]) => record(settlementStreamId(batch.settlementId), events), read: batchRead(batch.settlementId) };
    };

    it("shows a batch stored before chunks with its count, never its ids, and keeps its candidates for its list", async () => {
      const { batch, events, read } = newBatch();
      const opened: SettlementEvent = { type: "SettlementOpened.v1", data: { ...batch, candidates, occurredAt: openedAt } };
      const closed: SettlementEvent = {
        type: "SettlementClosed.v1",
        data: { settlementId: batch.settlementId, transactionIds: saleIds, totals, processorTotals: totals, status: "matched", occurredAt: closedAt },
      };
      const [opening, closing] = events(opened, closed);
      await given([]).when([opening!]).then(read, shown([opened], saleIds));
      await given([opening!]).when([closing!]).then(read, shown([opened, closed], saleIds));
    });

    it("follows a batch in chunks from its opening through its sealing to its close", async () => {
      const { batch, events, read } = newBatch();
      const { opened, chunk, sealed, closed } = chunked(batch);
      const [opening, chunkRecorded, sealing, closing] = events(opened, chunk, sealed, closed);
      await given([]).when([opening!, chunkRecorded!]).then(read, shown([opened, chunk], saleIds));
      await given([opening!, chunkRecorded!]).when([sealing!]).then(read, shown([opened, chunk, sealed], saleIds));
      await given([opening!, chunkRecorded!, sealing!]).when([closing!]).then(read, shown([opened, chunk, sealed, closed], saleIds));
    });

    it("shows a failed batch failed, nothing in it settled", async () => {
      const { batch, events, read } = newBatch();
      const { opened, chunk, failed } = chunked(batch);
      const [opening, chunkRecorded, failing] = events(opened, chunk, failed);
      await given([opening!, chunkRecorded!]).when([failing!]).then(read, shown([opened, chunk, failed], saleIds));
    });

    it("applies each event once: a closed batch's events applied again, in one batch or its sealing alone, change nothing", async () => {
      const { batch, events, read } = newBatch();
      const { opened, chunk, sealed, closed } = chunked(batch);
      const log = events(opened, chunk, sealed, closed);
      await given(log).when(log).then(read, shown([opened, chunk, sealed, closed], saleIds));
      await given(log).when([log[2]!]).then(read, shown([opened, chunk, sealed, closed], saleIds));
    });
  });
}
