import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { chainHash } from "../../src/eventstore/chain-hash.ts";
import { readChainLink } from "../../src/eventstore/hash-chain.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type RecordedPayments, recordPayments } from "../support/payments.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

const ALARM = "an event read from the log does not verify against its hash chain";

for (const target of testDatabaseTargets()) {
  describe(`events served with their hash-chain links on ${target}`, () => {
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

    const transactionEvents = async () => {
      const response = await api.request("GET", `/v1/transactions/${payments.capture}/events`);
      expect(response.status).toBe(200);
      return response.body as { events: Json[]; brokenLinks: number };
    };

    /** Every event of the log, through GET /v1/events pages of 3 (so predecessors are often on an earlier page). */
    async function wholeLog(): Promise<{ events: Json[]; brokenLinks: number }> {
      const events: Json[] = [];
      let brokenLinks = 0;
      let cursor: string | null = null;
      for (;;) {
        const response = await api.request("GET", `/v1/events?limit=3${cursor ? `&after=${cursor}` : ""}`);
        expect(response.status).toBe(200);
        events.push(...response.body.data);
        brokenLinks += response.body.brokenLinks;
        if (response.body.nextCursor === null) return { events, brokenLinks };
        cursor = response.body.nextCursor;
      }
    }

    const brokenLinkCount = async () => {
      const metrics = await api.request("GET", "/metrics", { key: null });
      return Number(/^event_chain_broken_links_total (\d+)$/m.exec(metrics.text)?.[1]);
    };
    const alarmsFor = (revision: number) =>
      api
        .logs()
        .split("\n")
        .filter((line) => line.includes(ALARM) && line.includes(stream) && line.includes(`"revision":${revision},`));

    /** Runs `check` while the event store holds `tamper`'s edit, then undoes it with `restore`. */
    async function whileTampered(tamper: string, restore: string, check: () => Promise<void>) {
      await sql.raw(tamper).execute(db);
      try {
        await check();
      } finally {
        await sql.raw(restore).execute(db);
      }
    }

    it("serves every event with its hash, its predecessor's, and verified links while the log is intact", async () => {
      const { events, brokenLinks } = await transactionEvents();
      expect(brokenLinks).toBe(0);
      expect(events.map((event) => event.chain.status)).toEqual(events.map(() => "verified"));
      events.forEach((event, index) => {
        expect(event.chain).toEqual({ ...event.metadata.chain, status: "verified", problems: [] });
        expect(event.chain.previous).toBe(index === 0 ? null : events[index - 1].chain.hash);
      });
      const log = await wholeLog();
      expect(log.brokenLinks).toBe(0);
      expect(new Set(log.events.map((event) => event.chain.status))).toEqual(new Set(["verified"]));
      expect(await brokenLinkCount()).toBe(0);
    });

    it("flags an event whose amount was edited in SQL, on every read, counts it in /metrics and logs it once", async () => {
      const before = await brokenLinkCount();
      const [stored] = await new PostgresEventStore(db).readStream(stream, { from: 2n, maxCount: 1 });
      const link = readChainLink(stored!.metadata);
      if (typeof link !== "object") throw new Error("the capture has no chain link");
      const edited = { ...stored!, data: { ...stored!.data, amount: 1 } };
      await whileTampered(
        `update events set data = jsonb_set(data, '{amount}', '1') where stream_id = '${stream}' and revision = 2`,
        `update events set data = jsonb_set(data, '{amount}', '${JSON.stringify(stored!.data.amount)}') where stream_id = '${stream}' and revision = 2`,
        async () => {
          for (const read of [await transactionEvents(), await wholeLog(), await transactionEvents()]) {
            expect(read.brokenLinks).toBe(1);
            const flagged = read.events.filter((event) => event.chain.status !== "verified");
            expect(flagged).toHaveLength(1);
            expect(flagged[0]).toMatchObject({ streamId: stream, revision: 2, data: { amount: 1 } });
            expect(flagged[0].chain).toEqual({
              hash: link.hash,
              previous: link.previous,
              status: "broken",
              problems: [{ code: "altered", message: expect.any(String), expected: chainHash(link.previous, edited), found: link.hash }],
            });
          }
          expect(await brokenLinkCount()).toBe(before + 1);
          expect(alarmsFor(2)).toHaveLength(1);
        },
      );
      expect((await transactionEvents()).brokenLinks).toBe(0);
    });

    it("flags a transaction read asOf a moment when its stream holds an event edited in SQL, counts it and logs it once", async () => {
      const declined = paymentStreamId(payments.declinedSale);
      const asOf = async () => {
        const response = await api.request("GET", `/v1/transactions/${payments.declinedSale}?asOf=${new Date().toISOString()}`);
        expect(response.status).toBe(200);
        return response.body;
      };
      expect(await asOf()).toMatchObject({ amount: 300, brokenLinks: 0, brokenEvents: [] });
      const before = await brokenLinkCount();
      const [stored] = await new PostgresEventStore(db).readStream(declined, { from: 0n, maxCount: 1 });
      const link = readChainLink(stored!.metadata);
      if (typeof link !== "object") throw new Error("the declined sale has no chain link");
      await whileTampered(
        `update events set data = jsonb_set(data, '{amount}', '1') where stream_id = '${declined}' and revision = 0`,
        `update events set data = jsonb_set(data, '{amount}', '300') where stream_id = '${declined}' and revision = 0`,
        async () => {
          for (const read of [await asOf(), await asOf()]) {
            expect(read).toMatchObject({ id: payments.declinedSale, amount: 1, brokenLinks: 1 });
            expect(read.brokenEvents).toEqual([
              {
                id: stored!.id,
                streamId: declined,
                revision: 0,
                type: stored!.type,
                chain: {
                  hash: link.hash,
                  previous: null,
                  status: "broken",
                  problems: [
                    {
                      code: "altered",
                      message: expect.any(String),
                      expected: chainHash(null, { ...stored!, data: { ...stored!.data, amount: 1 } }),
                      found: link.hash,
                    },
                  ],
                },
              },
            ]);
          }
          expect(await brokenLinkCount()).toBe(before + 1);
          const alarms = api
            .logs()
            .split("\n")
            .filter((line) => line.includes(ALARM) && line.includes(declined));
          expect(alarms).toHaveLength(1);
        },
      );
      expect(await asOf()).toMatchObject({ amount: 300, brokenLinks: 0 });
    });

    it("flags the event after one deleted from the log, and the event after one replaced with a hash of its own", async () => {
      const before = await brokenLinkCount();
      await whileTampered(
        `update events set stream_id = stream_id || ':hidden' where stream_id = '${stream}' and revision = 3`,
        `update events set stream_id = '${stream}' where stream_id = '${stream}:hidden'`,
        async () => {
          for (const read of [await transactionEvents(), await wholeLog()]) {
            // The hidden event is flagged too, in the stream it was moved to.
            const flagged = read.events.filter((event) => event.chain.status !== "verified" && event.streamId === stream);
            expect(flagged.map((event) => [event.streamId, event.revision, event.chain.problems.map((problem: Json) => problem.code)])).toEqual([
              [stream, 4, ["predecessor_missing"]],
            ]);
          }
        },
      );

      // The capture's amount rewritten with a hash recomputed to match: it holds, the refund after it does not.
      const [original] = await new PostgresEventStore(db).readStream(stream, { from: 2n, maxCount: 1 });
      const link = readChainLink(original!.metadata);
      if (typeof link !== "object") throw new Error("the capture has no chain link");
      const forged = chainHash(link.previous, { ...original!, data: { ...original!.data, amount: 1 } });
      await whileTampered(
        `update events set data = jsonb_set(data, '{amount}', '1'), metadata = jsonb_set(metadata, '{chain,hash}', '"${forged}"')
         where stream_id = '${stream}' and revision = 2`,
        `update events set data = '${JSON.stringify(original!.data)}'::jsonb, metadata = '${JSON.stringify(original!.metadata)}'::jsonb
         where stream_id = '${stream}' and revision = 2`,
        async () => {
          for (const read of [await transactionEvents(), await wholeLog()]) {
            const flagged = read.events.filter((event) => event.chain.status !== "verified");
            expect(flagged).toHaveLength(1);
            expect(flagged[0]).toMatchObject({ streamId: stream, revision: 3 });
            expect(flagged[0].chain.problems).toEqual([
              { code: "link_mismatch", message: expect.any(String), expected: forged, found: link.hash },
            ]);
          }
        },
      );
      // Revision 4 without its predecessor, the hidden event in its new stream, and the refund.
      expect(await brokenLinkCount()).toBe(before + 3);
      expect((await transactionEvents()).brokenLinks).toBe(0);
    });

    it("flags an event whose chain link was removed after chained events", async () => {
      const sale = paymentStreamId(payments.sale);
      const [original] = await new PostgresEventStore(db).readStream(sale, { from: 1n, maxCount: 1 });
      await whileTampered(
        `update events set metadata = metadata - 'chain' where stream_id = '${sale}' and revision = 1`,
        `update events set metadata = '${JSON.stringify(original!.metadata)}'::jsonb where stream_id = '${sale}' and revision = 1`,
        async () => {
          const response = await api.request("GET", `/v1/transactions/${payments.sale}/events`);
          expect(response.body.brokenLinks).toBe(1);
          expect(response.body.events[1].chain).toMatchObject({ hash: null, previous: null, status: "broken", problems: [{ code: "link_removed" }] });
        },
      );
    });
  });
}
