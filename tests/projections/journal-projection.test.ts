import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import type { PaymentEvent } from "../../src/domain/payments/index.ts";
import type { SettlementEvent } from "../../src/domain/settlements/events.ts";
import { totalsOf } from "../../src/domain/settlements/totals.ts";
import { journalProjection, journalProjectionWith } from "../../src/projections/journal/journal-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, projectionSpec } from "../support/projection-spec.ts";
import { approved, at, clientId, hostConfigurationId, initiated } from "../domain/payments/fixtures.ts";

const sale = "0190a8e2-0000-7000-8000-000000000001";
const refund = "0190a8e2-0000-7000-8000-000000000002";
const batch = "0190a8e2-0000-7000-8000-0000000000b1";
const paymentStream = `payment-${sale}`;
const batchStream = `settlement-${batch}`;

const settled = (transactionId: string): PaymentEvent => ({
  type: "TransactionSettled.v1",
  data: { transactionId, settlementId: batch, occurredAt: at(5) },
});

const opened: SettlementEvent = {
  type: "SettlementOpened.v1",
  data: { settlementId: batch, clientId, processor: "processor_a", hostConfigurationId, localDate: null, cutoff: at(4), candidates: [], occurredAt: at(4) },
};
const totals = totalsOf([{ type: "sale", currency: "USD", amount: 1000 }, { type: "refund", currency: "USD", amount: 300 }]);
const processorTotals = (processorNet: number) => totalsOf([{ type: "sale", currency: "USD", amount: processorNet }]);
const closed = (processorNet: number): SettlementEvent => ({
  type: "SettlementClosed.v2",
  data: {
    settlementId: batch,
    clientId,
    processor: "processor_a",
    hostConfigurationId,
    cutoff: at(4),
    transactionCount: 2,
    totals,
    processorTotals: processorTotals(processorNet),
    status: processorNet === 700 ? "matched" : "mismatched",
    occurredAt: at(6),
  },
});
/** Stored before batches were chunked: it names neither client nor processor, which the batch's opening does. */
const closedV1 = (processorNet: number): SettlementEvent => ({
  type: "SettlementClosed.v1",
  data: { settlementId: batch, transactionIds: [sale, refund], totals, processorTotals: processorTotals(processorNet), status: "mismatched", occurredAt: at(6) },
});

/** Each entry as [kind, transaction or batch, the event's type, its lines as account:debit:credit]. */
async function entries(db: Kysely<Database>) {
  const rows = await db.selectFrom("journal_entries").selectAll().orderBy("event_position").orderBy("entry_id").execute();
  return rows.map((row) => [
    row.kind,
    row.transaction_id ?? row.settlement_id,
    row.event_type,
    (row.lines as { account: string; debit: number; credit: number }[]).map((line) => `${line.account}:${line.debit}:${line.credit}`),
  ]);
}

for (const target of testDatabaseTargets()) {
  describe(`the journal read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given, reset } = projectionSpec(journalProjection, () => database.db);
    // One database for the file, its tables emptied after each test.
    afterEach(reset);

    it("posts each money movement once, however often its events are applied, and a batch's difference from its settled transactions", async () => {
      const record = eventLog();
      const paid = record(paymentStream, [initiated(sale, "sale", 1000), approved(sale)]);
      const refunded = record(paymentStream, [initiated(refund, "refund", 300, sale), approved(refund)]);
      const settledBoth = record(paymentStream, [settled(sale), settled(refund)]);
      const batchEvents = record(batchStream, [opened, closed(600)]);
      // Applied twice over (a replay), then the settlements and the close in one batch.
      await given([...paid, ...refunded, ...paid]).when([...paid, ...settledBoth, ...batchEvents, ...batchEvents]).then(entries, [
        ["sale_approved", sale, "TransactionApproved.v1", ["processor_receivable:1000:0", "sales:0:1000"]],
        ["refund_approved", refund, "TransactionApproved.v1", ["processor_receivable:0:300", "refunds:300:0"]],
        ["transaction_settled", sale, "TransactionSettled.v1", ["processor_receivable:0:1000", "settled_funds:1000:0"]],
        ["transaction_settled", refund, "TransactionSettled.v1", ["processor_receivable:300:0", "settled_funds:0:300"]],
        ["settlement_difference", batch, "SettlementClosed.v2", ["settled_funds:0:100", "settlement_differences:100:0"]],
      ]);
    });

    it("a close applied in a later batch than its transactions' settlements finds what they moved; a matched one posts nothing", async () => {
      const record = eventLog();
      const history = [
        ...record(paymentStream, [initiated(sale, "sale", 1000), approved(sale), initiated(refund, "refund", 300, sale), approved(refund)]),
        ...record(paymentStream, [settled(sale), settled(refund)]),
      ];
      const batchEvents = record(batchStream, [opened, closed(700)]);
      await given(history).when(batchEvents).then(async (db) => (await entries(db)).filter(([kind]) => kind === "settlement_difference"), []);
      const rows = await database.db.selectFrom("journal_payments").select(["revision"]).execute();
      expect(rows.map((row) => Number(row.revision))).toEqual([5]);
    });

    for (const [kept, projection] of [
      ["the books kept in memory", journalProjection],
      ["the books forgotten after each payment and read back", journalProjectionWith({ booksKeptInMemory: 1 })],
    ] as const) {
      it(`a rebuild's pass, ${kept}, makes the tables apply makes batch by batch`, async () => {
        const record = eventLog();
        const batches = [
          record(paymentStream, [initiated(sale, "sale", 1000), approved(sale)]),
          [...record(paymentStream, [initiated(refund, "refund", 300, sale), approved(refund)]), ...record(paymentStream, [settled(sale)])],
          [...record(paymentStream, [settled(refund)]), ...record(batchStream, [opened, closed(600)])],
        ];
        const tables = async () => ({
          entries: await entries(database.db),
          payments: await database.db.selectFrom("journal_payments").selectAll().orderBy("payment_id").execute(),
        });
        for (const events of batches) await database.db.transaction().execute((trx) => journalProjection.apply(trx, events, new Map()));
        const applied = await tables();
        await database.db.deleteFrom("journal_entries").execute();
        await database.db.deleteFrom("journal_payments").execute();

        const pass = projection.rebuildPass!();
        for (const events of batches) await database.db.transaction().execute((trx) => pass.apply(trx, events, new Map()));
        await database.db.transaction().execute((trx) => pass.finish(trx));
        expect(await tables()).toEqual(applied);
        expect(applied.entries.map(([kind]) => kind)).toEqual([
          "sale_approved",
          "refund_approved",
          "transaction_settled",
          "transaction_settled",
          "settlement_difference",
        ]);
      });
    }

    it("an older close takes its client and processor from its batch's opening", async () => {
      const record = eventLog();
      const history = record(paymentStream, [initiated(sale, "sale", 1000), approved(sale), settled(sale)]);
      const [opening, close] = record(batchStream, [opened, closedV1(900)]);
      await database.db.transaction().execute((trx) => journalProjection.apply(trx, history, new Map()));
      await database.db.transaction().execute((trx) => journalProjection.apply(trx, [close!], new Map([[batchStream, [opening!]]])));
      const [difference] = (await entries(database.db)).filter(([kind]) => kind === "settlement_difference");
      expect(difference).toEqual(["settlement_difference", batch, "SettlementClosed.v1", ["settled_funds:0:100", "settlement_differences:100:0"]]);
      const row = await database.db.selectFrom("journal_entries").select(["client_id", "processor"]).where("kind", "=", "settlement_difference").executeTakeFirstOrThrow();
      expect(row).toEqual({ client_id: clientId, processor: "processor_a" });
    });
  });
}
