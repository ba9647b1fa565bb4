import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import type { RecordedEvent } from "../../src/eventstore/port.ts";
import { openTestDatabase, type TestDatabase } from "../support/database.ts";
import { testEnvironment } from "../support/environment.ts";

// PGlite has a single connection, so its writers cannot commit out of order: this needs a server.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set (PGlite cannot interleave writers)";
if (skipReason) console.warn(`SKIPPED out-of-order commit test: ${skipReason}`);

describe.skipIf(skipReason)("PostgreSQL event store: writers that commit out of order", () => {
  let database: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    store = new PostgresEventStore(database.db, { pollIntervalMs: 20 });
  });
  afterAll(() => database.close());

  /** Appends one event in a transaction that stays open until `release` is called. */
  function holdOpenAppend(stream: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let appended!: (position: bigint) => void;
    const position = new Promise<bigint>((resolve) => (appended = resolve));
    const committed = database.db.transaction().execute(async (trx) => {
      const result = await new PostgresEventStore(trx).append(stream, [{ type: "Slow", data: {} }], "no_stream");
      appended(result.position);
      await released;
    });
    return { position, release, committed };
  }

  it("a reader resuming from its checkpoint still receives the slow event once it commits", async () => {
    const start = (await store.readHead()).checkpoint;
    const slowStream = `slow-${randomUUID()}`;
    const slow = holdOpenAppend(slowStream);
    const slowPosition = await slow.position;

    const fast = await store.append(`fast-${randomUUID()}`, [{ type: "Fast", data: {} }], "no_stream");
    expect(fast.position).toBeGreaterThan(slowPosition);

    // The fast event committed, but a reader must not move past the open slow transaction, nor
    // may readers that ask at once (and share one read of the horizon).
    const [whileOpen, ...alongside] = await Promise.all(Array.from({ length: 8 }, () => store.readAll({ after: start })));
    for (const read of [whileOpen!, ...alongside]) expect(read).toEqual({ events: [], checkpoint: start });

    slow.release();
    await slow.committed;
    const together = await Promise.all(Array.from({ length: 8 }, () => store.readAll({ after: start })));
    for (const read of together) expect(read.events.map((e) => e.type)).toEqual(["Slow", "Fast"]);

    const events: RecordedEvent[] = [];
    let checkpoint = whileOpen!.checkpoint;
    for (;;) {
      const batch = await store.readAll({ after: checkpoint, batchSize: 1 });
      if (batch.checkpoint === checkpoint) break;
      events.push(...batch.events);
      checkpoint = batch.checkpoint;
    }
    expect(events.map((e) => e.type)).toEqual(["Slow", "Fast"]);
    expect(events[0]?.position).toBe(slowPosition);
  });

  it("a live subscription delivers the slow event exactly once", async () => {
    const controller = new AbortController();
    const start = (await store.readHead()).checkpoint;
    const received: string[] = [];
    const consuming = (async () => {
      for await (const batch of store.subscribe({ after: start, signal: controller.signal })) {
        received.push(...batch.events.map((e) => e.type));
        if (received.length >= 3) controller.abort();
      }
    })();
    const slow = holdOpenAppend(`slow-${randomUUID()}`);
    await slow.position;
    await store.append(`fast-${randomUUID()}`, [{ type: "Fast", data: {} }], "no_stream");
    await store.append(`fast-${randomUUID()}`, [{ type: "Faster", data: {} }], "no_stream");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([]);

    slow.release();
    await slow.committed;
    const timer = setTimeout(() => controller.abort(), 10_000);
    await consuming;
    clearTimeout(timer);
    expect(received).toEqual(["Slow", "Fast", "Faster"]);
  });

  it("a write left open in another database of the server holds no reader back", async () => {
    const elsewhere = new pg.Client({ connectionString: testEnvironment.databaseUrl });
    await elsewhere.connect();
    try {
      const { rows } = await elsewhere.query<{ database: string }>("select current_database() as database");
      expect(rows[0]?.database).not.toBe(new URL(database.url ?? "").pathname.slice(1));
      // A transaction id taken and kept, as a long batch job's or an idle session's would be.
      await elsewhere.query("begin");
      await elsewhere.query("select pg_current_xact_id()");

      const start = (await store.readHead()).checkpoint;
      const stream = `after-${randomUUID()}`;
      await store.append(stream, [{ type: "AfterTheOpenWrite", data: {} }], "no_stream");
      // Read while the other transaction stays open. A short one of this database (autovacuum's)
      // may hold the reader back for a moment: that is the horizon doing its job.
      await vi.waitFor(async () => {
        const read = await store.readAll({ after: start });
        expect(read.events.map((event) => event.streamId)).toEqual([stream]);
        const filtered = await store.readAll({ after: start, types: ["AfterTheOpenWrite"] });
        expect(filtered.events.map((event) => event.streamId)).toEqual([stream]);
      }, { timeout: 5_000, interval: 50 });
    } finally {
      await elsewhere.end();
    }
  });
});
