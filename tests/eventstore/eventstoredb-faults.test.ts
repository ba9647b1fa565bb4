import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { EventStoreUnavailableError } from "../../src/eventstore/errors.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { EventStore, RecordedEvent } from "../../src/eventstore/port.ts";
import { FakeServer, serverFaults, type ServerRelease } from "./fake-eventstoredb-client.ts";

const event = (type: string) => ({ type, data: { type } });

/** The adapter over a fake server, giving up after `retryForMs` of transient failures. */
function storeOn(server: FakeServer, retryForMs = 2_000): EventStore {
  return eventStoreOnClient(server.asClient(), { retryForMs });
}

// Appends go through the server's grouped call on KurrentDB 25.1 and later, one call a stream before.
describe.each<ServerRelease>(["EventStoreDB 24.10", "KurrentDB 26.1"])("failures the adapter rides out on %s", (release) => {
  it.each(Object.entries(serverFaults))("an append that meets %s is sent again and lands once", async (_name, fault) => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    server.faults.push(fault, fault);
    expect(await store.append("payment-1", [event("A")], "no_stream")).toMatchObject({ nextExpectedRevision: 0n });
    expect((await store.readStream("payment-1")).map((e) => e.type)).toEqual(["A"]);
  });

  it.each(Object.entries(serverFaults))("reads that meet %s are made again", async (_name, fault) => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    await store.append("payment-1", [event("A")], "no_stream");
    server.faults.push(fault);
    expect((await store.readStream("payment-1")).map((e) => e.type)).toEqual(["A"]);
    server.faults.push(fault);
    expect((await store.readAll()).events.map((e) => e.type)).toEqual(["A"]);
    server.faults.push(fault);
    expect((await store.readHead()).position).not.toBeNull();
  });

  it("an append written whose answer was lost is sent again with the same ids: the server keeps it once", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    server.lostAnswers.push(serverFaults.unavailable);
    expect(await store.append("payment-1", [event("A"), event("B")], "no_stream")).toMatchObject({ nextExpectedRevision: 1n });
    server.lostAnswers.push(serverFaults.deadlineExceeded);
    const appended = await store.append("payment-1", [event("C")], 1n);
    expect(appended.nextExpectedRevision).toBe(2n);
    const stream = await store.readStream("payment-1");
    expect(stream.map((e) => e.type)).toEqual(["A", "B", "C"]);
    expect(appended.position).toBe(stream[2]!.position);
  });

  it("an append at `any` whose answer was lost is not sent again: EventStoreUnavailableError, though it may have landed", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    server.lostAnswers.push(serverFaults.unavailable);
    await expect(store.append("payment-1", [event("A")], "any")).rejects.toBeInstanceOf(EventStoreUnavailableError);
    expect(await store.readStream("payment-1")).toHaveLength(1);
  });

  it("a node down longer than the retry window is EventStoreUnavailableError, from appends and reads alike", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server, 300);
    await store.append("payment-1", [event("A")], "no_stream");
    server.stop(serverFaults.unavailable);
    await expect(store.append("payment-1", [event("B")], 0n)).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(store.readStream("payment-1")).rejects.toBeInstanceOf(EventStoreUnavailableError);
    await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreUnavailableError);
    server.restart();
    expect((await store.readStream("payment-1")).map((e) => e.type)).toEqual(["A"]);
  });

  it("a node that stays not ready is EventStoreUnavailableError naming the failure, even one without a message", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server, 300);
    server.stop(serverFaults.commitTimeoutInBatchAppend);
    await expect(store.append("payment-1", [event("A")], "no_stream")).rejects.toThrow(
      "EventStoreDB cannot serve the call now: DeadlineExceededError, type deadline-exceeded: (no message)",
    );
  });

  it("reads whose client stays unavailable after the node is back move to a new client, and are served", async () => {
    const server = new FakeServer(release);
    await storeOn(server).append("payment-1", [event("A")], "no_stream");
    // The client's first connection failed while the node was down: its reads never recover.
    server.bridgeStuck = true;
    let newReaders = 0;
    const store = eventStoreOnClient(server.asClient(), {
      retryForMs: 8_000,
      newReader: () => {
        newReaders += 1;
        server.bridgeStuck = false;
        return server.asClient();
      },
    });
    expect((await store.readStream("payment-1")).map((e) => e.type)).toEqual(["A"]);
    expect(newReaders).toBe(1);
  }, 15_000);

  it("an append that comes while the leader changes waits for the new one", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    server.stop(serverFaults.notLeader);
    setTimeout(() => server.restart(), 400);
    expect(await store.append("payment-1", [event("A")], "no_stream")).toMatchObject({ nextExpectedRevision: 0n });
  });

  it("a live feed reads on from its checkpoint after the server restarts: nothing skipped, nothing twice", async () => {
    const server = new FakeServer(release);
    const store = storeOn(server);
    await store.append("payment-1", [event("A"), event("B")], "no_stream");
    const controller = new AbortController();
    const seen: RecordedEvent[] = [];
    const subscribing = (async () => {
      for await (const batch of store.subscribe({ signal: controller.signal })) {
        seen.push(...batch.events);
        if (seen.length >= 4) controller.abort();
      }
    })();
    await expect.poll(() => seen.length).toBe(2);
    const readsBefore = server.readsOfAll.length;
    server.stop();
    await sleep(300);
    server.restart();
    await store.append("payment-1", [event("C")], 1n);
    await store.append("payment-2", [event("D")], "no_stream");
    const timer = setTimeout(() => controller.abort(), 15_000);
    await subscribing;
    clearTimeout(timer);
    expect(seen.map((e) => e.type)).toEqual(["A", "B", "C", "D"]);
    // Read on from where it was, never from the start of the log again.
    // (A read of one record from the start only asks whether the server serves reads at all.)
    const resumedFrom = server.readsOfAll
      .slice(readsBefore)
      .filter((read) => read.maxCount !== 1)
      .map((read) => read.fromPosition);
    expect(resumedFrom.length).toBeGreaterThan(0);
    expect(resumedFrom.every((from) => typeof from === "object" && from.commit >= BigInt(seen[1]!.position))).toBe(true);
  }, 20_000);
});

describe("appends one a call while a leader changes (EventStoreDB 24.10)", () => {
  it("require the leader: a follower reached during the election sends the client to the new leader, and the append lands", async () => {
    const server = new FakeServer("EventStoreDB 24.10");
    const store = storeOn(server);
    await store.append("payment-1", [event("A")], "no_stream");
    server.onFollower = true;
    expect(await store.append("payment-1", [event("B")], 0n)).toMatchObject({ nextExpectedRevision: 1n });
    expect(server.onFollower).toBe(false);
    expect(server.appends.map(([, , options]) => options)).toEqual([
      { streamState: "no_stream", requiresLeader: true },
      { streamState: 0n, requiresLeader: true },
    ]);
  });
});
