import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore, ReadAllResult, SubscribeOptions } from "../../src/eventstore/port.ts";
import { FakeClient, resolved, systemRecords } from "./fake-eventstoredb-client.ts";

/** A subscriber of the store: the `n` of every event it was handed, in order, and its last checkpoint. */
function listen(store: EventStore, options: Omit<SubscribeOptions, "signal">) {
  const stop = new AbortController();
  const seen: number[] = [];
  let checkpoint: string | null = null;
  let paused: Promise<void> | undefined;
  const done = (async () => {
    for await (const batch of store.subscribe({ ...options, signal: stop.signal }) as AsyncIterable<ReadAllResult>) {
      seen.push(...batch.events.map((event) => Number(event.data.n)));
      checkpoint = batch.checkpoint;
      await paused;
    }
  })();
  return {
    seen,
    checkpoint: () => checkpoint,
    /** Takes no batch until the promise settles: a slow projection. */
    pauseUntil: (until: Promise<void>) => (paused = until),
    stop: async () => {
      stop.abort();
      await done;
    },
  };
}

/** The feed's poll for other processes' appends, short so the tests are quick. */
const POLL_MS = 20;

const untilSeen = (subscriber: { seen: number[] }, count: number) => expect.poll(() => subscriber.seen.length, { timeout: 5_000, interval: 5 }).toBe(count);

describe("the projections' live feeds over EventStoreDB (fake server)", () => {
  it("catch up by reads, then share one read of $all at its head, each handed its own types once, in order", async () => {
    const fake = new FakeClient([resolved({ n: 1, type: "A" }), systemRecords.stats(2), resolved({ n: 3, type: "B" })]);
    const store = eventStoreOnClient(fake.asClient(), { pollIntervalMs: POLL_MS });
    const a = listen(store, { types: ["A"] });
    const b = listen(store, { types: ["B"] });
    const all = listen(store, {});
    await untilSeen(all, 2);
    for (let n = 4; n <= 9; n++) fake.write(resolved({ n, type: n % 2 === 0 ? "A" : "B" }));
    await untilSeen(all, 8);
    await untilSeen(a, 4);
    await untilSeen(b, 4);
    expect(a.seen).toEqual([1, 4, 6, 8]);
    expect(b.seen).toEqual([3, 5, 7, 9]);
    expect(all.seen).toEqual([1, 3, 4, 5, 6, 7, 8, 9]);
    // At the head, the three wait on one read a poll, not one each.
    const readsBefore = fake.readsOfAll.length;
    await sleep(20 * POLL_MS);
    expect(fake.readsOfAll.length - readsBefore).toBeLessThanOrEqual(21);
    await Promise.all([a.stop(), b.stop(), all.stop()]);
    // The last to leave stops the reads.
    await sleep(2 * POLL_MS);
    const readsAfter = fake.readsOfAll.length;
    await sleep(5 * POLL_MS);
    expect(fake.readsOfAll.length).toBe(readsAfter);
  });

  it("a subscriber that joins behind the shared subscription reads what it missed, then shares it: no event twice, none skipped", async () => {
    const fake = new FakeClient([resolved({ n: 1, type: "A" })]);
    const store = eventStoreOnClient(fake.asClient(), { pollIntervalMs: POLL_MS });
    const first = listen(store, {});
    await untilSeen(first, 1);
    for (let n = 2; n <= 40; n++) fake.write(resolved({ n, type: "A" }));
    await untilSeen(first, 40);
    // From the start of the log, while events keep coming.
    const late = listen(store, {});
    for (let n = 41; n <= 60; n++) fake.write(resolved({ n, type: "A" }));
    await untilSeen(late, 60);
    await untilSeen(first, 60);
    const oneToSixty = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(late.seen).toEqual(oneToSixty);
    expect(first.seen).toEqual(oneToSixty);
    expect(late.checkpoint()).toBe(first.checkpoint());
    await Promise.all([first.stop(), late.stop()]);
  });

  it("a subscriber too slow for the shared subscription is left to catch up alone, and the others never wait for it", async () => {
    const fake = new FakeClient([resolved({ n: 1, type: "A" })]);
    const store = eventStoreOnClient(fake.asClient(), { pollIntervalMs: POLL_MS });
    // A batch of one: the slow one may leave 16 events untaken.
    const quick = listen(store, { batchSize: 1 });
    const slow = listen(store, { batchSize: 1 });
    await untilSeen(slow, 1);
    let resume = (): void => {};
    slow.pauseUntil(new Promise<void>((resolve) => (resume = resolve)));
    // Events one at a time: far more than the slow one may leave untaken.
    for (let n = 2; n <= 40; n++) {
      fake.write(resolved({ n, type: "A" }));
      await untilSeen(quick, n);
    }
    resume();
    await untilSeen(slow, 40);
    expect(slow.seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    fake.write(resolved({ n: 41, type: "A" }));
    await untilSeen(slow, 41);
    await untilSeen(quick, 41);
    await Promise.all([quick.stop(), slow.stop()]);
  });
});
