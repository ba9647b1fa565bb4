import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { ReadAllResult } from "../../src/eventstore/port.ts";
import { awaitedOnDemand } from "../support/awaited-on-demand.ts";
import { FakeServer } from "./fake-eventstoredb-client.ts";

const event = (index: number) => ({ type: "Happened", data: { index } });

describe("EventStoreDB live subscription", () => {
  it("hands over the events of the moment after the first as one batch, not one each", async () => {
    const server = new FakeServer();
    // A wide window, so the test's appends fit in it.
    const store = eventStoreOnClient(server.asClient(), { coalesceMs: 1_500 });
    const stopping = new AbortController();
    const batches: ReadAllResult[] = [];
    const subscribed = (async () => {
      for await (const batch of store.subscribe({ signal: stopping.signal })) {
        batches.push(batch);
        if (batches.flatMap((b) => b.events).length === 5) stopping.abort();
      }
    })();
    await sleep(200);
    // 100 ms apart: without the gathering, each would be a batch of its own.
    for (let index = 0; index < 5; index += 1) {
      await store.append(`gathered-${index}`, [event(index)], "no_stream");
      await sleep(100);
    }
    await subscribed;
    const withEvents = batches.filter((batch) => batch.events.length > 0);
    expect(withEvents.map((batch) => batch.events.length)).toEqual([1, 4]);
    expect(withEvents.flatMap((batch) => batch.events.map((e) => e.data.index))).toEqual([0, 1, 2, 3, 4]);
  });

  it("hands over at once when someone awaits it while the events gather", async () => {
    const server = new FakeServer();
    const store = eventStoreOnClient(server.asClient(), { coalesceMs: 60_000 });
    const stopping = new AbortController();
    const { awaited, awaitNow } = awaitedOnDemand();
    const batches: ReadAllResult[] = [];
    const subscribed = (async () => {
      for await (const batch of store.subscribe({ signal: stopping.signal, awaited })) {
        batches.push(batch);
        if (batches.flatMap((b) => b.events).length === 2) stopping.abort();
      }
    })();
    await sleep(200);
    await store.append("awaited-0", [event(0)], "no_stream");
    await sleep(200);
    await store.append("awaited-1", [event(1)], "no_stream");
    await sleep(200);
    // Both have landed; the second waits in the gathering until someone awaits the subscriber.
    expect(batches.flatMap((b) => b.events).length).toBe(1);
    awaitNow();
    await subscribed;
    expect(batches.flatMap((b) => b.events.map((e) => e.data.index))).toEqual([0, 1]);
  });
});
