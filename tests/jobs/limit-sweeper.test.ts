import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRegistries } from "../../src/commands/context.ts";
import type { JobContext } from "../../src/jobs/job-context.ts";
import { reserveLimit } from "../../src/commands/limits.ts";
import { utcDay } from "../../src/domain/limits/limits.ts";
import { type LimitUsageEvent, limitUsageStreamId } from "../../src/domain/limits/usage.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { newId } from "../../src/ids.ts";
import { LimitSweeper } from "../../src/jobs/limit-sweeper.ts";
import { createLogger } from "../../src/logger.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { FakeServer } from "../eventstore/fake-eventstoredb-client.ts";

/** Stale reservations of one client-day: their releases take well over the 1 MiB one EventStoreDB append holds. */
const STALE = 5_000;
const AMOUNT = 100;
const limit = { currency: "USD", dailyAmount: STALE * AMOUNT };

for (const target of testDatabaseTargets()) {
  describe(`the limit sweeper on EventStoreDB (fake server), read models on ${target}`, () => {
    let database: TestDatabase;
    let store: EventStore;
    let clientId: string;
    let streamId: string;

    const contextOn = (eventStore: EventStore, now = () => new Date()): JobContext => ({
      db: database.db,
      store: eventStore,
      now,
      registries: createRegistries(eventStore),
      metadata: { actor: { role: "system" } },
    });
    const sweeperOn = (eventStore: EventStore) =>
      new LimitSweeper({ context: contextOn(eventStore), logger: createLogger("silent"), intervalMs: 60_000, graceMs: 1_000 });
    const usageEvents = async () => (await store.readStream(streamId)) as unknown as LimitUsageEvent[];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      store = eventStoreOnClient(new FakeServer().asClient());
      clientId = newId();
      const now = new Date();
      await database.db
        .insertInto("clients")
        .values({ client_id: clientId, name: "Acme", limits: JSON.stringify([limit]), created_at: now, updated_at: now, revision: "0" })
        .execute();
      streamId = limitUsageStreamId(clientId, "USD", utcDay(now));
      // Reservations made a minute ago whose payments never recorded their intent: every one is stale.
      const aMinuteAgo = contextOn(store, () => new Date(Date.now() - 60_000));
      for (let made = 0; made < STALE; made += 500) {
        const reserved = await Promise.all(
          Array.from({ length: 500 }, () => reserveLimit(aMinuteAgo, { clientId, transactionId: newId(), amount: AMOUNT, limit })),
        );
        expect(reserved.every((reservation) => reservation.ok)).toBe(true);
      }
    });
    afterEach(() => database?.close());

    it(`gives back ${STALE} stale reservations of one day, more than one append holds`, async () => {
      expect(await sweeperOn(store).sweepOnce()).toBe(STALE);
      const events = await usageEvents();
      expect(events.filter((event) => event.data.change === "released")).toHaveLength(STALE);
      expect(events.at(-1)!.data).toMatchObject({ usedAmount: 0, usedCount: 0 });
    });

    it("two sweepers at once (two instances) give each reservation back once between them", async () => {
      const [first, second] = await Promise.all([sweeperOn(store).sweepOnce(), sweeperOn(store).sweepOnce()]);
      expect(first + second).toBe(STALE);
      const events = await usageEvents();
      const released = events.filter((event) => event.data.change === "released").map((event) => event.data.reservationId);
      expect(new Set(released).size).toBe(STALE);
      expect(released).toHaveLength(STALE);
      expect(events.at(-1)!.data).toMatchObject({ usedAmount: 0, usedCount: 0 });
    });

    it("a sweep that dies between its appends leaves what the next sweep finishes, each reservation given back once", async () => {
      let appends = 0;
      const dyingAfterOneAppend: EventStore = {
        ...store,
        append: (...args) => {
          appends += 1;
          if (appends > 1) return Promise.reject(new Error("the process died here"));
          return store.append(...args);
        },
      };
      await expect(sweeperOn(dyingAfterOneAppend).sweepOnce()).rejects.toThrow("the process died here");
      const partly = await usageEvents();
      const releasedFirst = partly.filter((event) => event.data.change === "released").length;
      expect(releasedFirst).toBeGreaterThan(0);
      expect(releasedFirst).toBeLessThan(STALE);

      expect(await sweeperOn(store).sweepOnce()).toBe(STALE - releasedFirst);
      const events = await usageEvents();
      const released = events.filter((event) => event.data.change === "released").map((event) => event.data.reservationId);
      expect(new Set(released).size).toBe(STALE);
      expect(released).toHaveLength(STALE);
      expect(events.at(-1)!.data).toMatchObject({ usedAmount: 0, usedCount: 0 });
    });
  });
}
