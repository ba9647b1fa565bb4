import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideNewStream, GroupCommits } from "../../src/commands/execute-batched.ts";
import { ConcurrencyError } from "../../src/eventstore/errors.ts";
import { accept, type Decider, eventGuard, reject } from "../../src/domain/decider.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { tracingOff } from "../../src/telemetry/tracing.ts";
import type { ReadStreamOptions, StreamAppend } from "../../src/eventstore/port.ts";
import { openTestDatabase, testDatabaseTargets, type TestDatabase } from "../support/database.ts";

/** A card that is used until it is withdrawn: every event carries the whole state. */
type Event = { type: "Used"; data: { uses: number } } | { type: "Withdrawn"; data: { uses: number } };
type Command = { type: "use" } | { type: "withdraw" };
const cardDecider: Decider<{ uses: number; withdrawn: boolean }, Command, Event, "withdrawn"> = {
  initialState: () => ({ uses: 0, withdrawn: false }),
  evolve: (_state, event) => ({ uses: event.data.uses, withdrawn: event.type === "Withdrawn" }),
  decide: (command, state) => {
    if (state.withdrawn) return reject("withdrawn", "withdrawn");
    return command.type === "use" ? accept({ type: "Used", data: { uses: state.uses + 1 } }) : accept({ type: "Withdrawn", data: { uses: state.uses } });
  },
  isEvent: eventGuard<Event>(["Used", "Withdrawn"]),
};

/** The store, counting the reads of streams that commands decide on. */
class CountingStore extends PostgresEventStore {
  reads = 0;
  override readStream(streamId: string, options?: ReadStreamOptions) {
    this.reads += 1;
    return super.readStream(streamId, options);
  }
}

for (const target of testDatabaseTargets()) {
  describe(`group commits that remember idle streams (${target})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(() => database.close());

    it("decides a remembered stream's next command without reading it, and reads it again once another writer moved it", async () => {
      const store = new CountingStore(database.db);
      const reads = () => store.reads;
      const commits = new GroupCommits(store, tracingOff.tracer);
      const other = new GroupCommits(new PostgresEventStore(database.db), tracingOff.tracer);
      const stream = `card-${randomUUID()}`;
      const use = (on: GroupCommits, remember: boolean) => on.execute(cardDecider, stream, { type: "use" }, {}, { lastEventOnly: true, remember });

      expect((await use(commits, true)).ok).toBe(true);
      expect((await use(commits, true)).ok).toBe(true);
      expect((await use(commits, true)).ok).toBe(true);
      expect(reads()).toBe(1);

      // Another process uses it: what this one remembers is stale, so its next use reads again.
      expect((await use(other, false)).ok).toBe(true);
      const fourth = await use(commits, true);
      expect(fourth.ok && fourth.state.uses).toBe(5);
      expect(reads()).toBe(2);

      // Withdrawn elsewhere: the remembered usable card is refused once the stream is read.
      expect((await other.execute(cardDecider, stream, { type: "withdraw" }, {}, { lastEventOnly: true })).ok).toBe(true);
      const refused = await use(commits, true);
      expect(refused.ok).toBe(false);
      expect((await new PostgresEventStore(database.db).readStream(stream)).map((event) => event.type)).toEqual([...Array(5).fill("Used"), "Withdrawn"]);

      // Without `remember`, every command that finds the stream idle reads it.
      const plain = `card-${randomUUID()}`;
      const before = reads();
      for (let index = 0; index < 3; index += 1) await commits.execute(cardDecider, plain, { type: "use" }, {}, { lastEventOnly: true });
      expect(reads() - before).toBe(3);
    });

    it("appends a use and the new streams beside it in one statement, even with no other append in flight", async () => {
      let statements = 0;
      const counted = database.db.withPlugin({
        transformQuery: ({ node }) => {
          statements += 1;
          return node;
        },
        transformResult: async ({ result }) => result,
      });
      const commits = new GroupCommits(new PostgresEventStore(counted), tracingOff.tracer);
      const stream = `card-${randomUUID()}`;
      const useWith = (paymentStream: string) =>
        commits.execute(cardDecider, stream, { type: "use" }, {}, {
          lastEventOnly: true,
          remember: true,
          alongside: decideNewStream(cardDecider, paymentStream, { type: "use" }, {}).append!,
        });
      expect((await useWith(`payment-${randomUUID()}`)).ok).toBe(true);

      // The card's stream is remembered now: the uses below read nothing. Each batch of them is
      // one group alone in the store, and one statement, however many new streams it carries.
      const before = statements;
      const payments = Array.from({ length: 5 }, () => `payment-${randomUUID()}`);
      const used = await Promise.all(payments.map(useWith));
      expect(used.every((execution) => execution.ok)).toBe(true);
      expect(statements - before).toBeLessThanOrEqual(2);
      const written = await new PostgresEventStore(database.db).readStreams(payments);
      expect([...written.values()].map((events) => events.length)).toEqual([1, 1, 1, 1, 1]);
    });

    it("appends a new stream alongside a command in one transaction, grouped with the others in flight, all or none", async () => {
      const store = new PostgresEventStore(database.db);
      const commits = new GroupCommits(store, tracingOff.tracer);
      const stream = `card-${randomUUID()}`;
      const payment = (streamId: string) => decideNewStream(cardDecider, streamId, { type: "use" }, {}).append!;
      const useWith = (alongside: StreamAppend) =>
        commits.execute(cardDecider, stream, { type: "use" }, {}, { lastEventOnly: true, remember: true, alongside });
      const transactionOf = async (streamId: string) => {
        const rows = await database.db.selectFrom("events").select("transaction_id").where("stream_id", "=", streamId).execute();
        return rows.map((row) => row.transaction_id);
      };

      const payments = Array.from({ length: 20 }, () => `payment-${randomUUID()}`);
      const used = await Promise.all(payments.map((streamId) => useWith(payment(streamId))));
      expect(used.every((execution) => execution.ok)).toBe(true);
      const cardTransactions = new Set(await transactionOf(stream));
      for (const streamId of payments) {
        const [transaction] = await transactionOf(streamId);
        expect(cardTransactions.has(transaction!)).toBe(true);
      }

      // The payment's stream exists already: neither the use nor the payment is written, alone or in a group.
      const existing = payments[0]!;
      await expect(useWith(payment(existing))).rejects.toBeInstanceOf(ConcurrencyError);
      const racing = await Promise.allSettled([useWith(payment(`payment-${randomUUID()}`)), useWith(payment(existing))]);
      expect(racing.some((result) => result.status === "rejected")).toBe(true);
      const uses = await store.readStream(stream);
      expect(uses).toHaveLength(20 + racing.filter((result) => result.status === "fulfilled").length);
      expect(await transactionOf(existing)).toHaveLength(1);

      // The command refused: its new stream is not written.
      expect((await commits.execute(cardDecider, stream, { type: "withdraw" }, {}, { lastEventOnly: true })).ok).toBe(true);
      const orphan = `payment-${randomUUID()}`;
      const refused = await useWith(payment(orphan));
      expect(refused.ok).toBe(false);
      expect(await transactionOf(orphan)).toHaveLength(0);
    });
  });
}
