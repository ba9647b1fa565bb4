import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import type { ReadAllResult } from "../../src/eventstore/port.ts";
import { awaitedOnDemand } from "../support/awaited-on-demand.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";

for (const target of testDatabaseTargets()) {
  describe(`PostgreSQL event store subscription on ${target}`, () => {
    let database: TestDatabase;
    beforeEach(async () => {
      database = await openTestDatabase(target);
    });
    afterEach(() => database.close());

    it("reads the appends of the moment after the one that woke it as one batch", async () => {
      // A long poll, so only this process's appends wake the subscriber; a wide window, so the test's appends fit in it.
      const store = new PostgresEventStore(database.db, { pollIntervalMs: 60_000, coalesceMs: 1_500 });
      const stopping = new AbortController();
      const batches: ReadAllResult[] = [];
      const subscribed = (async () => {
        for await (const batch of store.subscribe({ signal: stopping.signal })) {
          batches.push(batch);
          if (batches.flatMap((b) => b.events).length === 5) stopping.abort();
        }
      })();
      // The subscriber's first read finds nothing; then it waits for an append.
      await new Promise((resolve) => setTimeout(resolve, 200));
      // 100 ms apart: without the wait, the subscriber would read the first alone.
      for (let index = 0; index < 5; index += 1) {
        await store.append(`coalesced-${randomUUID()}`, [{ type: "Happened", data: { index } }], "no_stream");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await subscribed;
      const withEvents = batches.filter((batch) => batch.events.length > 0);
      expect(withEvents.map((batch) => batch.events.length)).toEqual([5]);
      expect(withEvents[0]!.events.map((event) => event.data.index)).toEqual([0, 1, 2, 3, 4]);
    });

    it("reads at once when someone awaits it while the appends gather", async () => {
      const store = new PostgresEventStore(database.db, { pollIntervalMs: 60_000, coalesceMs: 60_000 });
      const stopping = new AbortController();
      const { awaited, gathering, awaitNow } = awaitedOnDemand();
      const batches: ReadAllResult[] = [];
      const subscribed = (async () => {
        for await (const batch of store.subscribe({ signal: stopping.signal, awaited })) {
          batches.push(batch);
          if (batch.events.length > 0) stopping.abort();
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await store.append(`coalesced-${randomUUID()}`, [{ type: "Happened", data: { index: 0 } }], "no_stream");
      await gathering;
      // Unawaited, the subscriber would read after a minute of gathering: longer than the test may take.
      awaitNow();
      await subscribed;
      expect(batches.flatMap((batch) => batch.events).map((event) => event.data.index)).toEqual([0]);
    });

    it("still reads what gathered when it is stopped while the appends gather", async () => {
      const store = new PostgresEventStore(database.db, { pollIntervalMs: 60_000, coalesceMs: 60_000 });
      const stopping = new AbortController();
      // Never awaited: only the stop ends the gathering.
      const { awaited, gathering } = awaitedOnDemand();
      const batches: ReadAllResult[] = [];
      const subscribed = (async () => {
        for await (const batch of store.subscribe({ signal: stopping.signal, awaited })) batches.push(batch);
      })();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await store.append(`coalesced-${randomUUID()}`, [{ type: "Happened", data: { index: 0 } }], "no_stream");
      await gathering;
      stopping.abort();
      await subscribed;
      expect(batches.flatMap((batch) => batch.events).map((event) => event.data.index)).toEqual([0]);
    });

    it("stops at once when aborted while it waits to read", async () => {
      const store = new PostgresEventStore(database.db, { pollIntervalMs: 60_000, coalesceMs: 60_000 });
      const stopping = new AbortController();
      const subscribed = (async () => {
        for await (const batch of store.subscribe({ signal: stopping.signal })) void batch;
      })();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await store.append(`coalesced-${randomUUID()}`, [{ type: "Happened", data: {} }], "no_stream");
      await new Promise((resolve) => setTimeout(resolve, 100));
      const startedAt = Date.now();
      stopping.abort();
      await subscribed;
      expect(Date.now() - startedAt).toBeLessThan(5_000);
    });
  });
}
