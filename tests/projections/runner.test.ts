import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { createLogger } from "../../src/logger.ts";
import { readCheckpoint } from "../../src/projections/checkpoints.ts";
import { measureLag } from "../../src/projections/lag.ts";
import { ReadYourWrites } from "../../src/projections/read-your-writes.ts";
import { rebuildProjection } from "../../src/projections/rebuild.ts";
import { ProjectionRunner, type ProjectionRunnerOptions } from "../../src/projections/runner.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { countRows, createTestProjectionTables, testProjection } from "./fixtures/test-projection.ts";

const logger = createLogger("silent");

for (const target of testDatabaseTargets()) {
  describe(`projection runner on ${target}`, () => {
    let database: TestDatabase;
    let store: PostgresEventStore;
    let readYourWrites: ReadYourWrites;
    const runners: ProjectionRunner[] = [];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      store = new PostgresEventStore(database.db, { pollIntervalMs: 20 });
      readYourWrites = new ReadYourWrites();
      await createTestProjectionTables(database.db);
    });
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()));
      await database.close();
    });

    const startRunner = (options: Partial<ProjectionRunnerOptions> = {}) => {
      const runner = new ProjectionRunner({
        db: database.db,
        store,
        projection: testProjection(),
        logger,
        leaseMs: 600,
        retryDelayMs: 20,
        batchSize: 50,
        ...options,
        readYourWrites,
      });
      runners.push(runner);
      runner.start();
      return runner;
    };

    const appendEvents = async (count: number) => {
      for (let index = 0; index < count; index += 10) {
        const events = Array.from({ length: Math.min(10, count - index) }, (_, i) => ({
          type: "Happened",
          data: { index: index + i },
        }));
        await store.append(`stream-${randomUUID()}`, events, "no_stream");
      }
    };

    const caughtUp = async () => {
      await vi.waitFor(
        async () => expect((await measureLag(database.db, store, testProjection())).positionsBehind).toBe(0n),
        { timeout: 10_000, interval: 20 },
      );
    };

    it("projects every event once and stores its checkpoint", async () => {
      await appendEvents(120);
      startRunner();
      await caughtUp();
      expect(await countRows(database.db, "projected_events")).toBe(120);
      expect(await countRows(database.db, "applications")).toBe(120);
      const head = await store.readHead();
      expect((await readCheckpoint(database.db, "test_events")).checkpoint).toBe(head.checkpoint);

      await appendEvents(30);
      await caughtUp();
      expect(await countRows(database.db, "projected_events")).toBe(150);
    });

    it("reports its lag in positions and seconds until it catches up", async () => {
      await appendEvents(20);
      const before = await measureLag(database.db, store, testProjection());
      expect(before.positionsBehind).toBeGreaterThan(0n);
      expect(before.projectedPosition).toBeNull();
      expect(before.headPosition).toBe((await store.readHead()).position);
      startRunner();
      await caughtUp();
      const after = await measureLag(database.db, store, testProjection());
      expect(after).toMatchObject({ positionsBehind: 0n, secondsBehind: 0, projectedPosition: after.headPosition });
    });

    it("writes a batch's rows and checkpoint together: a failed batch leaves neither", async () => {
      await appendEvents(100);
      let batches = 0;
      let failures = 0;
      const projection = testProjection({
        // Fails after the batch's rows were written: the rollback must take them back.
        afterBatch: () => {
          batches += 1;
          if (batches >= 2 && failures < 3) {
            failures += 1;
            throw new Error("projection handler failed");
          }
        },
      });
      startRunner({ projection });
      await caughtUp();
      expect(failures).toBe(3);
      expect(await countRows(database.db, "projected_events")).toBe(100);
      expect(await countRows(database.db, "applications")).toBe(100);
    });

    it("replaying from an earlier checkpoint changes nothing in an idempotent read model", async () => {
      await appendEvents(60);
      const runner = startRunner();
      await caughtUp();
      const snapshot = await sql`select * from projected_events order by position`.execute(database.db);
      await runner.stop();
      await database.db.updateTable("projection_checkpoints").set({ checkpoint: null }).execute();

      startRunner();
      await vi.waitFor(async () => expect(await countRows(database.db, "applications")).toBe(120), {
        timeout: 10_000,
      });
      const replayed = await sql`select * from projected_events order by position`.execute(database.db);
      expect(replayed.rows).toEqual(snapshot.rows);
    });

    it("stops, and hands the lease back, when stopped while it was taking the lease", async () => {
      await sql`insert into projection_checkpoints (projection) values (${testProjection().name})`.execute(database.db);
      let stopped: Promise<void> | undefined;
      // The checkpoint row locked (on PGlite, the one connection taken): the runner's lease query waits.
      await database.db.transaction().execute(async (trx) => {
        await sql`select * from projection_checkpoints where projection = ${testProjection().name} for update`.execute(trx);
        const runner = startRunner({ owner: "stopped-while-acquiring" });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(runner.active).toBe(false);
        stopped = runner.stop();
      });
      // Then the lease is free and the query takes it, after the stop.
      const outcome = await Promise.race([
        stopped!.then(() => "stopped"),
        new Promise((resolve) => setTimeout(() => resolve("still running after 10 s"), 10_000)),
      ]);
      expect(outcome).toBe("stopped");
      const { rows } = await sql<{ owner: string | null }>`
        select owner from projection_checkpoints where projection = ${testProjection().name}
      `.execute(database.db);
      expect(rows).toEqual([{ owner: null }]);
    });

    it("lets only one runner apply events; another takes over when it stops", async () => {
      await appendEvents(100);
      const first = startRunner({ owner: "first", projection: testProjection({ appliedBy: "first" }) });
      await vi.waitFor(() => expect(first.active).toBe(true));
      const second = startRunner({ owner: "second", projection: testProjection({ appliedBy: "second" }) });
      await caughtUp();
      expect(second.active).toBe(false);

      await first.stop();
      await appendEvents(50);
      await vi.waitFor(() => expect(second.active).toBe(true), { timeout: 5_000 });
      await caughtUp();
      const { rows } = await sql<{ applied_by: string; count: string }>`
        select applied_by, count(*)::text as count from applications group by applied_by order by applied_by
      `.execute(database.db);
      expect(rows).toEqual([
        { applied_by: "first", count: "100" },
        { applied_by: "second", count: "50" },
      ]);
    });

    it("rebuilds from zero while the old read model keeps serving, then carries on live", async () => {
      await appendEvents(300);
      startRunner();
      await caughtUp();
      const before = await sql`select * from projected_events order by position`.execute(database.db);
      await database.db.deleteFrom("applications" as never).execute();

      const servedDuringRebuild: Promise<number>[] = [];
      const replayed = await rebuildProjection({
        db: database.db,
        store,
        projection: testProjection({ appliedBy: "rebuild" }),
        batchSize: 40,
        onProgress: () => servedDuringRebuild.push(countRows(database.db, "projected_events")),
      });
      expect(replayed).toBe(300);
      // Readers kept seeing the complete old read model, never a half-built one.
      expect(await Promise.all(servedDuringRebuild)).toEqual(Array(servedDuringRebuild.length).fill(300));
      expect(servedDuringRebuild.length).toBeGreaterThan(5);

      const after = await sql`select * from projected_events order by position`.execute(database.db);
      expect(after.rows).toEqual(before.rows);

      await appendEvents(20);
      await caughtUp();
      expect(await countRows(database.db, "projected_events")).toBe(320);
    });

    it("applies an append at once when a request waits for it, however long appends may gather", async () => {
      // No poll and a minute of gathering: only the waiting request can make the runner read soon.
      store = new PostgresEventStore(database.db, { pollIntervalMs: 60_000, coalesceMs: 60_000 });
      const runner = startRunner();
      await vi.waitFor(() => expect(runner.active).toBe(true), { timeout: 10_000, interval: 20 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const streamId = `stream-${randomUUID()}`;
      await store.append(streamId, [{ type: "Happened", data: {} }], "no_stream");
      const projected = async () => {
        const { rows } = await sql`select 1 from projected_events where stream_id = ${streamId}`.execute(database.db);
        return rows.length === 1;
      };
      expect(await readYourWrites.waitForProjection({ projection: "test_events", streamId, revision: 0n }, projected, 5_000)).toBe(true);
    });
  });
}

// Only a server lets two processes share the database; PGlite belongs to one process.
const crashSkip = testDatabaseTargets().includes("postgres") ? undefined : "DATABASE_URL is not set";
if (crashSkip) console.warn(`SKIPPED projection runner crash takeover test: ${crashSkip}`);

describe.skipIf(crashSkip)("projection runner in a process that is killed", () => {
  let database: TestDatabase;
  let child: ChildProcess | undefined;

  beforeEach(async () => {
    database = await openTestDatabase("postgres");
    await createTestProjectionTables(database.db);
  });
  afterEach(async () => {
    child?.kill("SIGKILL");
    await database.close();
  });

  it("is replaced by a waiting runner, which resumes from the checkpoint without repeating work", async () => {
    const store = new PostgresEventStore(database.db, { pollIntervalMs: 20 });
    for (let stream = 0; stream < 50; stream += 1) {
      const events = Array.from({ length: 10 }, (_, index) => ({ type: "Happened", data: { index } }));
      await store.append(`stream-${stream}`, events, "no_stream");
    }
    const script = fileURLToPath(new URL("./fixtures/runner-process.ts", import.meta.url));
    const leaseMs = 800;
    child = spawn(process.execPath, ["--import", "tsx", script, database.url!, "child", String(leaseMs)], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await once(child.stdout!, "data");
    await vi.waitFor(async () => expect(await countRows(database.db, "applications")).toBeGreaterThan(50), {
      timeout: 15_000,
    });

    const successor = new ProjectionRunner({
      db: database.db,
      store,
      projection: testProjection({ appliedBy: "successor" }),
      logger,
      readYourWrites: new ReadYourWrites(),
      owner: "successor",
      leaseMs,
      batchSize: 10,
    });
    successor.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(successor.active).toBe(false);

      child.kill("SIGKILL");
      await once(child, "exit");
      const appliedByChild = await countRows(database.db, "applications");
      expect(appliedByChild).toBeLessThan(500);

      await vi.waitFor(async () => expect(await countRows(database.db, "projected_events")).toBe(500), {
        timeout: 15_000,
      });
      expect(successor.active).toBe(true);
      // Every event was applied exactly once: the killed batch rolled back with its checkpoint.
      expect(await countRows(database.db, "applications")).toBe(500);
    } finally {
      await successor.stop();
    }
  }, 30_000);
});
