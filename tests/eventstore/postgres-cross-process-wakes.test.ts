import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../src/db/connection.ts";
import { type CrossProcessWakes, listenAcrossProcesses } from "../../src/db/cross-process-wakes.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import type { RecordedEvent } from "../../src/eventstore/port.ts";
import { createLogger } from "../../src/logger.ts";
import { openTestDatabase, type TestDatabase } from "../support/database.ts";
import { testEnvironment } from "../support/environment.ts";

// The embedded database serves one process: there is no other to hear.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set (PGlite serves one process)";
if (skipReason) console.warn(`SKIPPED cross-process wakes: ${skipReason}`);

describe.skipIf(skipReason)("PostgreSQL: another process's appends and projection batches are heard at once", () => {
  let database: TestDatabase;
  /** A second process on the same database: its own pool, under its own name. */
  let other: Awaited<ReturnType<typeof openDatabase>>;
  let wakes: CrossProcessWakes;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    other = await openDatabase({ databaseUrl: database.url, dataDir: "memory://" });
    wakes = listenAcrossProcesses(database.url!, database.processName!, createLogger("silent"));
  });
  afterAll(async () => {
    await wakes?.close();
    await other?.close();
    await database?.close();
  });

  it("a subscriber whose poll is ten minutes away receives another process's append", async () => {
    const store = new PostgresEventStore(database.db, { pollIntervalMs: 600_000, wakes });
    const stop = new AbortController();
    const received: RecordedEvent[] = [];
    const head = (await store.readHead()).checkpoint;
    const reading = (async () => {
      for await (const batch of store.subscribe({ after: head, signal: stop.signal })) received.push(...batch.events);
    })();
    try {
      // At the head, waiting: its first read found nothing.
      await vi.waitFor(() => expect(received).toEqual([]));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const streamId = `elsewhere-${randomUUID()}`;
      await new PostgresEventStore(other.db).append(streamId, [{ type: "Elsewhere", data: {} }], "no_stream");
      await vi.waitFor(() => expect(received.map((event) => event.streamId)).toEqual([streamId]), { timeout: 5_000 });
    } finally {
      stop.abort();
      await reading;
      await store.close();
    }
  });

  it("listens again once its connection is lost, and tells of an append at once then, for what it may have missed", async () => {
    let appends = 0;
    wakes.onAppended(() => (appends += 1));
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${`${database.processName} listener`}`.execute(other.db);
    await vi.waitFor(() => expect(appends).toBe(1), { timeout: 5_000 });
    await new PostgresEventStore(other.db).append(`elsewhere-${randomUUID()}`, [{ type: "Elsewhere", data: {} }], "no_stream");
    await vi.waitFor(() => expect(appends).toBe(2), { timeout: 5_000 });
  });

  it("tells of another process's projection batches, by projection, and not of this process's own", async () => {
    const heard: string[] = [];
    wakes.onApplied((projection) => heard.push(projection));
    const insertCheckpoint = (projection: string) =>
      sql`insert into projection_checkpoints (projection, checkpoint) values (${projection}, null)`.execute(database.db);
    const moveCheckpoint = (db: typeof database.db, projection: string, checkpoint: string) =>
      sql`update projection_checkpoints set checkpoint = ${checkpoint} where projection = ${projection}`.execute(db);
    await insertCheckpoint("own-batches");
    await insertCheckpoint("their-batches");
    await moveCheckpoint(database.db, "own-batches", "1");
    await moveCheckpoint(other.db, "their-batches", "1");
    await vi.waitFor(() => expect(heard).toContain("their-batches"), { timeout: 5_000 });
    // A lease renewed (the checkpoint unchanged) is no batch.
    await sql`update projection_checkpoints set lease_expires_at = now() where projection = 'their-batches'`.execute(other.db);
    await moveCheckpoint(other.db, "their-batches", "2");
    await vi.waitFor(() => expect(heard).toEqual(["their-batches", "their-batches"]), { timeout: 5_000 });
  });
});
