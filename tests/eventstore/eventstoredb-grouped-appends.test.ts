import { describe, expect, it } from "vitest";
import { ConcurrencyError } from "../../src/eventstore/errors.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import type { JsonObject, NewEvent } from "../../src/eventstore/port.ts";
import { FakeServer, type ServerRelease } from "./fake-eventstoredb-client.ts";

const event = (type: string, metadata?: JsonObject): NewEvent => ({ type, data: { type }, ...(metadata ? { metadata } : {}) });

function serverAndStore(release: ServerRelease) {
  const server = new FakeServer(release);
  return { server, store: eventStoreOnClient(server.asClient()) };
}

describe("appends in flight on KurrentDB 26.1 go out as one appendRecords request", () => {
  it("twenty appends to new streams take the first alone, then the rest in one request; no append a stream", async () => {
    const { server, store } = serverAndStore("KurrentDB 26.1");
    const streams = Array.from({ length: 20 }, (_, index) => `payment-${index}`);
    const results = await Promise.all(streams.map((stream) => store.append(stream, [event("Opened")], "no_stream")));
    expect(results.map((result) => result.nextExpectedRevision)).toEqual(streams.map(() => 0n));
    // One probe at the first append (is the call there?), then the first append alone while the
    // other nineteen wait, then those nineteen together.
    expect(server.groupedRequests.appendRecords).toBe(3);
    expect(server.appends).toEqual([]);
  });

  it("a stale stream's append fails alone and the others land in the next request, not one by one", async () => {
    const { server, store } = serverAndStore("KurrentDB 26.1");
    const streams = Array.from({ length: 10 }, (_, index) => `payment-${index}`);
    await store.appendLinked(streams.map((streamId) => ({ streamId, events: [event("Opened")], expected: "no_stream" as const })));
    const before = server.groupedRequests.appendRecords;
    const results = await Promise.allSettled(streams.map((stream, index) => store.append(stream, [event("Changed")], index === 2 || index === 7 ? 4n : 0n)));
    expect(results.filter((result) => result.status === "rejected").map((result) => (result as PromiseRejectedResult).reason)).toMatchObject([
      { name: "ConcurrencyError", streamId: "payment-2", expected: 4n, actual: 0n },
      { name: "ConcurrencyError", streamId: "payment-7", expected: 4n, actual: 0n },
    ]);
    // The first alone; the other nine refused once for the two stale ones, then sent again without them.
    expect(server.groupedRequests.appendRecords - before).toBe(3);
  });

  it("linked appends with a stale stream write none of their streams", async () => {
    const { store } = serverAndStore("KurrentDB 26.1");
    await store.append("payment-1", [event("Opened"), event("Changed")], "no_stream");
    const linked = store.appendLinked([
      { streamId: "payment-2", events: [event("Opened")], expected: "no_stream" },
      { streamId: "payment-1", events: [event("Linked")], expected: 0n },
    ]);
    await expect(linked).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await store.readStream("payment-2")).toEqual([]);
  });

  it("metadata of any JSON shape reads back as appended, from the stream, the log and a subscription", async () => {
    const { store } = serverAndStore("KurrentDB 26.1");
    const metadata = { chain: { hash: "ab", previous: null }, attempt: 2, tags: ["a", "b"], traceparent: "00-1-2-01" };
    await store.append("payment-1", [event("Opened", metadata)], "no_stream");
    expect((await store.readStream("payment-1"))[0]?.metadata).toEqual(metadata);
    expect((await store.readAll()).events[0]?.metadata).toEqual(metadata);
    const controller = new AbortController();
    for await (const batch of store.subscribe({ signal: controller.signal })) {
      expect(batch.events[0]?.metadata).toEqual(metadata);
      controller.abort();
    }
  });

  it("a grouped append that meets a follower after a leader change makes the client connect to the leader, and lands", async () => {
    const { server, store } = serverAndStore("KurrentDB 26.1");
    await store.append("payment-1", [event("Opened")], "no_stream");
    server.onFollower = true;
    expect(await store.append("payment-1", [event("Changed")], 0n)).toMatchObject({ nextExpectedRevision: 1n });
    expect(server.onFollower).toBe(false);
    // The nudge that moved the client wrote nothing.
    expect(server.streams.has("$ledger-leader-probe")).toBe(false);
  });

  it("an append at `any` is not grouped: it cannot be sent again safely, as a grouped request may need to be", async () => {
    const { server, store } = serverAndStore("KurrentDB 26.1");
    await store.append("payment-1", [event("Opened")], "any");
    expect(server.appends).toHaveLength(1);
  });
});

describe("servers without a grouped call", () => {
  it("on KurrentDB 25.1 the appends in flight go out as one multiStreamAppend", async () => {
    const { server, store } = serverAndStore("KurrentDB 25.1");
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.append(`payment-${index}`, [event("Opened")], "no_stream")));
    expect(server.groupedRequests).toEqual({ appendRecords: 1, multiStreamAppend: 3 });
    expect(server.appends).toEqual([]);
  });

  it("on EventStoreDB 24.10, asked once, each stream's append is its own call", async () => {
    const { server, store } = serverAndStore("EventStoreDB 24.10");
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.append(`payment-${index}`, [event("Opened")], "no_stream")));
    await store.append("payment-0", [event("Changed")], 0n);
    expect(server.groupedRequests).toEqual({ appendRecords: 1, multiStreamAppend: 1 });
    expect(server.appends).toHaveLength(21);
  });
});
