import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SettlementEvent } from "../../src/domain/settlements/events.ts";
import type { JsonObject, RecordedEvent } from "../../src/eventstore/port.ts";
import { settlementsProjection } from "../../src/projections/settlements/settlements-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";

const settlementId = "0190a8e2-0000-7000-8000-00000000b001";
const batch = {
  settlementId,
  clientId: "0190a8e2-0000-7000-8000-00000000c001",
  processor: "processor_a" as const,
  hostConfigurationId: "0190a8e2-0000-7000-8000-00000000d001",
  localDate: null,
  cutoff: "2026-06-11T04:30:00.000Z",
};
const saleIds = ["0190a8e2-0000-7000-8000-000000000001", "0190a8e2-0000-7000-8000-000000000002"];
const totals = [{ currency: "USD", salesCount: 2, salesAmount: 3000, refundsCount: 0, refundsAmount: 0, netAmount: 3000 }];
const at = "2026-06-11T04:31:00.000Z";

let position = 0n;
const recorded = (streamId: string, { type, data }: { type: string; data: object }): RecordedEvent => {
  position += 1n;
  return { id: `e${position}`, streamId, type, data: data as JsonObject, metadata: {}, revision: 0n, position, recordedAt: new Date(at) };
};
const settlementEvent = (event: SettlementEvent) => recorded(`settlement-${settlementId}`, event);

for (const target of testDatabaseTargets()) {
  describe(`the settlements read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await openTestDatabase(target);
    });
    afterEach(async () => {
      await database.close();
    });

    const apply = (events: RecordedEvent[]) => database.db.transaction().execute((trx) => settlementsProjection.apply(trx, events, new Map()));
    const view = async () => (await database.db.selectFrom("settlements").select("view").where("settlement_id", "=", settlementId).executeTakeFirstOrThrow()).view;
    const listed = async () =>
      (await database.db.selectFrom("settlement_transactions").select("transaction_id").where("settlement_id", "=", settlementId).orderBy("transaction_id").execute()).map((row) => row.transaction_id);

    it("shows a batch stored before chunks with its count, never its ids, and keeps its candidates for its list", async () => {
      await apply([
        settlementEvent({ type: "SettlementOpened.v1", data: { ...batch, candidates: saleIds.map((transactionId) => ({ transactionId, paymentId: transactionId })), occurredAt: at } }),
      ]);
      expect(await view()).toMatchObject({ status: "closing", transactionCount: 2 });
      await apply([
        settlementEvent({ type: "SettlementClosed.v1", data: { settlementId, transactionIds: saleIds, totals, processorTotals: totals, status: "matched", occurredAt: at } }),
      ]);
      const closed = await view();
      expect(closed).toMatchObject({ status: "matched", closedAt: at, transactionCount: 2, totals });
      expect(closed).not.toHaveProperty("transactionIds");
      expect(await listed()).toEqual(saleIds);
    });

    it("follows a batch in chunks from its opening to its close, applying each event once", async () => {
      const opened = settlementEvent({ type: "SettlementOpened.v2", data: { ...batch, occurredAt: at } });
      const chunk = settlementEvent({
        type: "SettlementCandidatesRecorded.v1",
        data: { settlementId, candidates: saleIds.map((transactionId) => ({ transactionId, paymentId: transactionId })), occurredAt: at },
      });
      const sealed = settlementEvent({ type: "SettlementSealed.v1", data: { settlementId, transactionCount: 2, occurredAt: at } });
      await apply([opened, chunk]);
      expect(await view()).toMatchObject({ status: "closing", transactionCount: 0 });
      expect(await listed()).toEqual(saleIds);
      await apply([sealed]);
      expect(await view()).toMatchObject({ status: "closing", transactionCount: 2 });
      const closed = settlementEvent({
        type: "SettlementClosed.v2",
        data: { ...batch, transactionCount: 2, totals, processorTotals: [], status: "mismatched", occurredAt: at },
      });
      await apply([closed]);
      await apply([opened, chunk, sealed, closed]);
      expect(await view()).toMatchObject({ status: "mismatched", transactionCount: 2, processorTotals: [] });
      expect(await listed()).toEqual(saleIds);
    });
  });
}
