import { describe, expect, it } from "vitest";
import type { ReadAllOptions, ReadAllResult, RecordedEvent } from "../../src/eventstore/port.ts";
import { LiveSubscriptions } from "../../src/eventstore/postgres/live-subscription.ts";

/** A log in memory, read as the PostgreSQL store reads it (the checkpoint is the last position read), counting the reads. */
function memoryLog() {
  const events: RecordedEvent[] = [];
  const reads: ReadAllOptions[] = [];
  const readAll = async (options: ReadAllOptions): Promise<ReadAllResult> => {
    reads.push(options);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const after = options.after === undefined || options.after === null ? -1 : Number(options.after);
    const following = events.filter((event) => Number(event.position) > after);
    const batchSize = options.batchSize ?? 500;
    const scanned = options.types ? following.filter((event) => options.types!.includes(event.type)).slice(0, batchSize) : following.slice(0, batchSize);
    const last = options.types && scanned.length < batchSize ? following.at(-1) : scanned.at(-1);
    return { events: scanned, checkpoint: last ? String(last.position) : (options.after ?? null) };
  };
  const append = (type: string) => {
    const position = BigInt(events.length);
    const event = { id: `e${position}`, streamId: `s${position}`, type, data: {}, metadata: {}, revision: 0n, position, recordedAt: new Date() };
    events.push(event);
    return { type, data: {} };
  };
  return { readAll, reads, append };
}

/** Subscribes and collects the types of what it receives, until `stop` aborts. */
function subscriber(live: LiveSubscriptions, types: string[] | undefined, stop: AbortSignal) {
  const received: string[] = [];
  const checkpoints: (string | null)[] = [];
  const done = (async () => {
    for await (const batch of live.subscribe({ signal: stop, batchSize: 10, ...(types && { types }) })) {
      received.push(...batch.events.map((event) => event.type));
      checkpoints.push(batch.checkpoint);
    }
  })();
  return { received, checkpoints, done };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("live subscriptions of one PostgreSQL event store", () => {
  it("subscribers at the head share the poll's one read of what another process appended, each keeping its own types", async () => {
    const log = memoryLog();
    const live = new LiveSubscriptions(log.readAll, { pollIntervalMs: 150, coalesceMs: 20 });
    const stop = new AbortController();
    const subscribers = [["A"], ["B"], ["A", "C"], undefined, ["D"]].map((types) => subscriber(live, types, stop.signal));
    await settle(50);
    const readsWhenCaughtUp = log.reads.length;
    // Another process's appends: nothing tells this one but the poll.
    log.append("A");
    log.append("C");
    log.append("B");
    await settle(200);
    stop.abort();
    live.close();
    await Promise.all(subscribers.map((one) => one.done));

    expect(log.reads.length - readsWhenCaughtUp).toBe(1);
    expect(log.reads.at(-1)?.types).toBeUndefined();
    expect(subscribers.map((one) => one.received)).toEqual([["A"], ["B"], ["A", "C"], ["A", "C", "B"], []]);
    // Each moves past the three events, "D" too: nothing is read twice.
    expect(subscribers.map((one) => one.checkpoints.at(-1))).toEqual(["2", "2", "2", "2", "2"]);
  });

  it("subscribers woken by this process's append read alone, filtered by their types", async () => {
    const log = memoryLog();
    const live = new LiveSubscriptions(log.readAll, { pollIntervalMs: 60_000, coalesceMs: 20 });
    const stop = new AbortController();
    const subscribers = [["A"], ["B"], ["C"]].map((types) => subscriber(live, types, stop.signal));
    await settle(50);
    const readsWhenCaughtUp = log.reads.length;
    live.appended([log.append("A"), log.append("B")]);
    await settle(150);
    stop.abort();
    live.close();
    await Promise.all(subscribers.map((one) => one.done));

    const reads = log.reads.slice(readsWhenCaughtUp);
    expect(reads.map((read) => read.types)).toEqual([["A"], ["B"]]);
    expect(subscribers.map((one) => one.received)).toEqual([["A"], ["B"], []]);
  });

  it("subscribers at the head share each poll's read", async () => {
    const log = memoryLog();
    const live = new LiveSubscriptions(log.readAll, { pollIntervalMs: 100, coalesceMs: 20 });
    const stop = new AbortController();
    const subscribers = [["A"], ["B"], ["C"]].map((types) => subscriber(live, types, stop.signal));
    await settle(50);
    const readsWhenCaughtUp = log.reads.length;
    await settle(520);
    stop.abort();
    live.close();
    await Promise.all(subscribers.map((one) => one.done));
    // Five polls, give or take the one at either end: one read each, not three.
    const polls = log.reads.length - readsWhenCaughtUp;
    expect(polls).toBeGreaterThanOrEqual(4);
    expect(polls).toBeLessThanOrEqual(6);
  });

  it("appends that come while a batch is applied wake one read, not one each", async () => {
    const log = memoryLog();
    const live = new LiveSubscriptions(log.readAll, { pollIntervalMs: 60_000, coalesceMs: 20 });
    const stop = new AbortController();
    const received: string[] = [];
    let applied = () => {};
    const applying = new Promise<void>((resolve) => (applied = resolve));
    let firstApplied = () => {};
    const firstApplying = new Promise<void>((resolve) => (firstApplied = resolve));
    const done = (async () => {
      for await (const batch of live.subscribe({ signal: stop.signal, batchSize: 50 })) {
        received.push(...batch.events.map((event) => event.type));
        // The first batch's apply lasts until the test has made the appends below, one by one.
        if (received.length === 1) {
          firstApplied();
          await applying;
        }
      }
    })();
    await settle(50);
    const readsWhenCaughtUp = log.reads.length;
    live.appended([log.append("A")]);
    await firstApplying;
    for (let index = 0; index < 10; index += 1) {
      live.appended([log.append("B")]);
      await settle(2);
    }
    applied();
    await settle(200);
    stop.abort();
    live.close();
    await done;
    expect(received).toEqual(["A", ...Array.from({ length: 10 }, () => "B")]);
    // The first append's read, then one for the ten that came during its apply.
    expect(log.reads.length - readsWhenCaughtUp).toBe(2);
  });

  it("a subscriber catching up reads alone, filtered, until it reaches the head", async () => {
    const log = memoryLog();
    for (let index = 0; index < 25; index += 1) log.append(index % 5 === 0 ? "A" : "B");
    const live = new LiveSubscriptions(log.readAll, { pollIntervalMs: 60_000, coalesceMs: 20 });
    const stop = new AbortController();
    const one = subscriber(live, ["B"], stop.signal);
    await settle(100);
    stop.abort();
    live.close();
    await one.done;
    expect(one.received).toHaveLength(20);
    expect(log.reads.every((read) => read.types?.[0] === "B")).toBe(true);
  });
});
