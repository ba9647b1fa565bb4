import { type Kysely, sql, type Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyChains } from "../../src/audit/verify-chains.ts";
import type { Database } from "../../src/db/schema.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { readChainLink } from "../../src/eventstore/hash-chain.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { type FieldDifference, verifyReadModel } from "../../src/projections/verify-read-model.ts";
import { projections } from "../../src/projections/all.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type RecordedPayments, recordPayments } from "../support/payments.ts";
import { startTestService, type TestService } from "../support/service.ts";

const rollback = new Error("rollback");

/**
 * Verifies the hash chains inside a transaction that tampers with the log first and is then
 * rolled back. Kept short (one batch): while a writing transaction is open, readers of the global
 * log on the whole server wait for it, other test files' included.
 */
async function verifyTampered(db: Kysely<Database>, tamper: (trx: Transaction<Database>) => Promise<unknown>, withHeads = true) {
  let report: Awaited<ReturnType<typeof verifyChains>> | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      await tamper(trx);
      report = await verifyChains({ store: new PostgresEventStore(trx), eventsDb: withHeads ? trx : undefined });
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return report!;
}

for (const target of testDatabaseTargets()) {
  describe(`verifying the log and the read models on ${target}`, () => {
    let api: TestService;
    let db: Kysely<Database>;
    let payments: RecordedPayments;
    let stream: string;

    beforeAll(async () => {
      api = await startTestService(target);
      db = api.database.db;
      payments = await recordPayments(api);
      stream = paymentStreamId(payments.authorization);
    });
    afterAll(() => api.stop());

    it("finds nothing wrong in a log written through the API, and every read model equals a fresh replay", async () => {
      const report = await verifyChains({ store: new PostgresEventStore(db), eventsDb: db, batchSize: 7 });
      const { rows } = await sql<{ events: number; streams: number }>`
        select count(*)::int as events, count(distinct stream_id)::int as streams from events`.execute(db);
      expect(report).toEqual({ ...rows[0], tampered: [], unchained: { events: 0, streams: 0, sample: [] } });

      for (const projection of projections) {
        const verdict = await verifyReadModel({ db, store: new PostgresEventStore(db), projection });
        expect(verdict).toMatchObject({ projection: projection.name, status: "compared", differences: [] });
      }
    });

    it("names exactly the stream whose event data was edited in the database, and the revision", async () => {
      const report = await verifyTampered(db, (trx) =>
        sql`update events set data = jsonb_set(data, '{amount}', '1') where stream_id = ${stream} and revision = 2`.execute(trx),
      );
      expect(report.tampered).toEqual([{ streamId: stream, findings: [{ kind: "altered", revision: 2n }], omitted: 0 }]);
    });

    it("names a deleted event as a missing revision", async () => {
      const report = await verifyTampered(db, (trx) =>
        sql`delete from events where stream_id = ${stream} and revision = 1`.execute(trx),
      );
      expect(report.tampered).toEqual([{ streamId: stream, findings: [{ kind: "missing", from: 1n, to: 1n }], omitted: 0 }]);
    });

    it("names two events swapped in their stream as reordered", async () => {
      const report = await verifyTampered(db, async (trx) => {
        const move = (from: number, to: number) =>
          sql`update events set revision = ${to} where stream_id = ${stream} and revision = ${from}`.execute(trx);
        await move(1, -1);
        await move(2, 1);
        await move(-1, 2);
      });
      // Read in log order, the event now numbered 2 comes first and the one numbered 1 after it.
      expect(report.tampered).toEqual([
        {
          streamId: stream,
          findings: [
            { kind: "altered", revision: 2n },
            { kind: "out_of_order", revision: 1n, after: 2n },
            { kind: "altered", revision: 1n },
          ],
          omitted: 0,
        },
      ]);
    });

    it("sees events deleted from the end of a stream only through PostgreSQL's stream heads", async () => {
      const dropLast = (trx: Transaction<Database>) =>
        sql`delete from events where stream_id = ${stream} and revision = 5`.execute(trx);
      const report = await verifyTampered(db, dropLast);
      expect(report.tampered).toEqual([{ streamId: stream, findings: [{ kind: "head_mismatch", head: 5n, lastStored: 4n }], omitted: 0 }]);
      expect((await verifyTampered(db, dropLast, false)).tampered).toEqual([]);
    });

    it("names a removed chain link and a replaced event that was given a valid hash of its own", async () => {
      const sale = paymentStreamId(payments.sale);
      const stripped = await verifyTampered(db, (trx) =>
        sql`update events set metadata = metadata - 'chain' where stream_id = ${sale} and revision = 1`.execute(trx),
      );
      expect(stripped.tampered).toEqual([{ streamId: sale, findings: [{ kind: "unchained", revision: 1n }], omitted: 0 }]);

      // The capture's amount rewritten, with a hash recomputed to match: that event holds, but the
      // one after it still links to the original.
      const [original] = await new PostgresEventStore(db).readStream(stream, { from: 2n, maxCount: 1 });
      const link = readChainLink(original!.metadata);
      if (typeof link !== "object") throw new Error("the event has no chain link");
      const data = { ...original!.data, amount: 1 };
      const hash = chainHash(link.previous, { ...original!, data });
      const replaced = await verifyTampered(db, (trx) =>
        sql`update events set data = ${JSON.stringify(data)}::jsonb, metadata = jsonb_set(metadata, '{chain,hash}', to_jsonb(${hash}::text))
            where stream_id = ${stream} and revision = 2`.execute(trx),
      );
      expect(replaced.tampered).toEqual([{ streamId: stream, findings: [{ kind: "broken_link", revision: 3n }], omitted: 0 }]);
    });

    it("reports events from before hash chains (before the log's first chained event) as unchained, not as tampered", async () => {
      // Without a link, and first in the log's order (transaction 1), as every event was before hash chains.
      const report = await verifyTampered(db, async (trx) => {
        await sql`insert into streams (stream_id, revision) values ('legacy-1', 1)`.execute(trx);
        await sql`insert into events (position, transaction_id, event_id, stream_id, revision, type, data, metadata)
                  overriding system value
                  values (-2, '1'::xid8, gen_random_uuid(), 'legacy-1', 0, 'Noted.v1', '{}', '{}'),
                         (-1, '1'::xid8, gen_random_uuid(), 'legacy-1', 1, 'Noted.v1', '{}', '{}')`.execute(trx);
      });
      expect(report.tampered).toEqual([]);
      expect(report.unchained).toEqual({ events: 2, streams: 1, sample: ["legacy-1"] });
    });

    it("names a whole stream stripped of its chain after chained events as tampered, not as from before hash chains", async () => {
      const sale = paymentStreamId(payments.sale);
      const report = await verifyTampered(db, (trx) =>
        sql`update events set metadata = metadata - 'chain',
                              data = case when revision = 0 then jsonb_set(data, '{amount}', '1') else data end
            where stream_id = ${sale}`.execute(trx),
      );
      const { rows } = await sql<{ revision: string }>`select revision from events where stream_id = ${sale} order by revision`.execute(db);
      expect(report.tampered).toEqual([
        { streamId: sale, findings: rows.map(({ revision }) => ({ kind: "unchained", revision: BigInt(revision) })), omitted: 0 },
      ]);
      expect(report.unchained.events).toBe(0);
    });

    /**
     * Verifies the transactions read model and expects exactly the capture's row to differ from the
     * replay, in exactly these fields.
     */
    async function expectOnlyTheCaptureToDiffer(fields: FieldDifference[]) {
      const projection = projections.find((candidate) => candidate.name === "transactions")!;
      const verdict = await verifyReadModel({ db, store: new PostgresEventStore(db), projection });
      const key = { transaction_id: payments.capture };
      const changed = { count: 1, sample: [key] };
      expect(verdict).toMatchObject({
        status: "compared",
        differences: [{ table: "transactions", onlyLive: changed, onlyReplay: changed, changed: { count: 1, sample: [{ key, fields }] } }],
      });
    }

    it("finds payments stored before limit breaches were kept equal to a replay", async () => {
      const projection = projections.find((candidate) => candidate.name === "transactions")!;
      const { rows: stored } = await sql<{ payment_id: string; state: string }>`
        select payment_id, state::text as state from payments`.execute(db);
      try {
        // What a payment's stored state looked like then: no limitBreach key in any transaction.
        await sql`
          update payments set state = jsonb_set(state::jsonb, '{transactions}', (
            select jsonb_agg(transaction - 'limitBreach' order by ordinal)
            from jsonb_array_elements(state::jsonb -> 'transactions') with ordinality as kept(transaction, ordinal)
          ))::json`.execute(db);
        const verdict = await verifyReadModel({ db, store: new PostgresEventStore(db), projection });
        expect(verdict).toMatchObject({ status: "compared", differences: [] });
      } finally {
        for (const { payment_id, state } of stored) {
          await sql`update payments set state = ${state}::json where payment_id = ${payment_id}`.execute(db);
        }
      }
    });

    it("names the rows of a read model edited in the database", async () => {
      const setStatus = (status: string) =>
        sql`update transactions set status = ${status} where transaction_id = ${payments.capture}`.execute(db);
      await setStatus("failed");
      try {
        await expectOnlyTheCaptureToDiffer([{ field: "status", live: "failed", replayed: "approved" }]);
      } finally {
        await setStatus("approved");
      }
    });

    it("names a transaction whose stored view was edited, though views are compared whatever their key order", async () => {
      const addToView = (change: object) =>
        sql`update transactions set view = (view::jsonb || ${JSON.stringify(change)}::jsonb)::json
            where transaction_id = ${payments.capture}`.execute(db);
      const original = await sql<{ amount: number }>`select (view->>'amount')::int as amount from transactions
                                                     where transaction_id = ${payments.capture}`.execute(db);
      await addToView({ amount: original.rows[0]!.amount + 1 });
      try {
        await expectOnlyTheCaptureToDiffer([{ field: "view.amount", live: original.rows[0]!.amount + 1, replayed: original.rows[0]!.amount }]);
      } finally {
        await addToView({ amount: original.rows[0]!.amount });
      }
    });
  });
}
