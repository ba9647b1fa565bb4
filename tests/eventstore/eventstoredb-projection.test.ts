import type { AllStreamResolvedEvent } from "@kurrent/kurrentdb-client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore, ReadAllResult } from "../../src/eventstore/port.ts";
import { createLogger } from "../../src/logger.ts";
import { readCheckpoint } from "../../src/projections/checkpoints.ts";
import { measureLag } from "../../src/projections/lag.ts";
import type { Projection } from "../../src/projections/projection.ts";
import { ReadYourWrites } from "../../src/projections/read-your-writes.ts";
import { ProjectionRunner } from "../../src/projections/runner.ts";
import { verifyReadModel } from "../../src/projections/verify-read-model.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { createTestProjectionTables, testProjection } from "../projections/fixtures/test-projection.ts";
import { FakeClient, resolved, systemRecords } from "./fake-eventstoredb-client.ts";

/**
 * $all as a live server has it: the projection's events ("A") among events of another type,
 * stream metadata, the system projections' links and the node's statistics, and 40 records of
 * those after the last "A" (at position 5600).
 */
function liveLog(): AllStreamResolvedEvent[] {
  const records: AllStreamResolvedEvent[] = [];
  const kinds = [systemRecords.stats, (n: number) => resolved({ n, type: "A" }), systemRecords.link, (n: number) => resolved({ n, type: "B" }), systemRecords.metadata];
  for (let n = 1; n <= 60; n += 1) records.push(kinds[n % 5]!(n));
  for (let n = 61; n <= 100; n += 1) records.push(n % 2 === 0 ? resolved({ n, type: "B" }) : systemRecords.stats(n));
  return records;
}

/** The store, with a promise kept once its consumer has taken (committed or passed over) the first batch `reached` accepts. */
function watchCommit(store: EventStore, reached: (batch: ReadAllResult) => boolean): { store: EventStore; committed: Promise<void>; batches: ReadAllResult[] } {
  let resolve = (): void => {};
  const committed = new Promise<void>((done) => (resolve = done));
  const batches: ReadAllResult[] = [];
  async function* tap(source: AsyncIterable<ReadAllResult>): AsyncGenerator<ReadAllResult> {
    for await (const batch of source) {
      batches.push(batch);
      yield batch;
      // Runs when the runner asks for the next batch, i.e. after it committed this one.
      if (reached(batch)) resolve();
    }
  }
  return { store: { ...store, subscribe: (options) => tap(store.subscribe(options)) }, committed, batches };
}

const holds = (position: bigint) => (batch: ReadAllResult) => batch.events.some((event) => event.position === position);

for (const target of testDatabaseTargets()) {
  describe(`a projection over EventStoreDB's $all, read models on ${target}`, () => {
    let database: TestDatabase;
    let runner: ProjectionRunner | undefined;
    const projection: Projection = { ...testProjection(), eventTypes: ["A"] };

    beforeEach(async () => {
      database = await openTestDatabase(target);
      await createTestProjectionTables(database.db);
    });
    afterEach(async () => {
      await runner?.stop();
      await database.close();
    });

    /** Runs the projection until it has applied its last event in the log. */
    async function projectLog(fake: FakeClient): Promise<EventStore> {
      return (await project(fake, holds(5600n))).store;
    }

    /** Runs the projection until it has taken the first batch `reached` accepts. */
    async function project(fake: FakeClient, reached: (batch: ReadAllResult) => boolean, { batchSize = 10 } = {}) {
      const store = eventStoreOnClient(fake.asClient());
      const watched = watchCommit(store, reached);
      runner = new ProjectionRunner({
        db: database.db,
        store: watched.store,
        projection,
        logger: createLogger("silent"),
        readYourWrites: new ReadYourWrites(),
        batchSize,
      });
      runner.start();
      await watched.committed;
      return watched;
    }

    it("has no lag once it applied its last event, though other and system records follow", async () => {
      const store = await projectLog(new FakeClient(liveLog()));
      expect(await measureLag(database.db, store, projection)).toMatchObject({ positionsBehind: 0n, secondsBehind: 0, projectedPosition: 5600n });
    });

    it("lags while an event of its type is not applied", async () => {
      const fake = new FakeClient(liveLog());
      const store = await projectLog(fake);
      await runner?.stop();
      fake.write(resolved({ n: 101, type: "A" }));
      const lag = await measureLag(database.db, store, projection);
      expect(lag.positionsBehind).toBeGreaterThan(0n);
      expect(lag.secondsBehind).toBeGreaterThan(0);
    });

    it("verify compares it with a replay at once when it is caught up", async () => {
      const store = await projectLog(new FakeClient(liveLog()));
      const verdict = await verifyReadModel({ db: database.db, store, projection, settleTimeoutMs: 0 });
      expect(verdict).toEqual({ projection: "test_events", status: "compared", events: 12, differences: [] });
    });

    it("writes a checkpoint that only passes records of other types at most once a second", async () => {
      // One "A", then 320 records of another type.
      const log = [resolved({ n: 1, type: "A" }), ...Array.from({ length: 320 }, (_, i) => resolved({ n: i + 2, type: "B" }))];
      const fake = new FakeClient(log);
      // One event a batch: the "A", then a batch that only passes the others, taken at once.
      const watched = await project(fake, (batch) => batch.checkpoint === "32100:32100", { batchSize: 1 });
      expect(watched.batches.filter((batch) => batch.events.length === 0).length).toBeGreaterThan(0);
      expect((await readCheckpoint(database.db, projection.name)).checkpoint).toBe("100:100");

      // A second on, the next checkpoint past records of other types is written.
      await new Promise((resolve) => setTimeout(resolve, 1_050));
      for (let n = 322; n <= 352; n += 1) fake.write(resolved({ n, type: "B" }));
      await vi.waitFor(async () => expect((await readCheckpoint(database.db, projection.name)).checkpoint).toBe("35200:35200"), {
        timeout: 5_000,
      });
    });
  });
}
