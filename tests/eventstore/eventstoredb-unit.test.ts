import { describe, expect, it } from "vitest";
import {
  ANY,
  AccessDeniedError,
  DeadlineExceededError,
  NO_STREAM,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  UnavailableError,
  UnknownError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
} from "@kurrent/kurrentdb-client";
import { ConcurrencyError, InvalidAppendError } from "../../src/eventstore/errors.ts";
import type { ReadAllResult, RecordedEvent } from "../../src/eventstore/port.ts";
import {
  comparePositions,
  decodeCheckpoint,
  describeFailure,
  encodeCheckpoint,
  isMissingStreamError,
  isTransientError,
  positionOf,
  toActualRevision,
  toBigInt,
  toClientExpectedRevision,
  toConcurrencyError,
  toRecordedAt,
  toRecordedEvent,
  toVisibleEvent,
  type ClientResolvedEvent,
} from "../../src/eventstore/eventstoredb/codec.ts";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import { AppendSignal, type PositionedBatch, readLive } from "../../src/eventstore/eventstoredb/live-reads.ts";
import { FakeClient, asBigInt, resolved, systemRecords } from "./fake-eventstoredb-client.ts";

const systemEvent = (n: number): AllStreamResolvedEvent => resolved({ n, streamId: "$$$stats", type: "$metadata" });
const ids = (events: RecordedEvent[]): number[] => events.map((event) => Number(event.data.n));

describe("checkpoint codec", () => {
  it("round-trips commit and prepare positions as decimal strings", () => {
    const position = { commit: 18_446_744_073_709_551_000n, prepare: 42n };
    expect(encodeCheckpoint(position)).toBe("18446744073709551000:42");
    expect(decodeCheckpoint(encodeCheckpoint(position))).toEqual(position);
  });

  it("reads null and undefined as the start of the log", () => {
    expect(decodeCheckpoint(null)).toBeNull();
    expect(decodeCheckpoint(undefined)).toBeNull();
  });

  it.each(["", "12", "12:", ":12", "-1:2", "1:2:3", "a:b", "1.5:2"])("rejects %j", (checkpoint) => {
    expect(() => decodeCheckpoint(checkpoint)).toThrow(RangeError);
  });

  it("orders positions by commit, then prepare", () => {
    expect(comparePositions({ commit: 1n, prepare: 9n }, { commit: 2n, prepare: 0n })).toBe(-1);
    expect(comparePositions({ commit: 2n, prepare: 1n }, { commit: 2n, prepare: 0n })).toBe(1);
    expect(comparePositions({ commit: 2n, prepare: 2n }, { commit: 2n, prepare: 2n })).toBe(0);
  });
});

describe("revision and position normalisation", () => {
  it.each([
    [7n, 7n],
    [7, 7n],
    ["7", 7n],
    [0, 0n],
    ["-1", -1n],
    ["9007199254740993", 9_007_199_254_740_993n],
  ])("reads %s as %s", (value, expected) => {
    expect(toBigInt(value, "revision")).toBe(expected);
  });

  it.each([1.5, Number.NaN, 2 ** 60, "12abc", ""])("rejects %j", (value) => {
    expect(() => toBigInt(value, "revision")).toThrow(RangeError);
  });

  it("takes the record's position, else the commit position alone", () => {
    expect(positionOf(resolved({ n: 3, numeric: true }))).toEqual({ commit: 300n, prepare: 300n });
    expect(positionOf({ commitPosition: asBigInt(500) })).toEqual({ commit: 500n, prepare: 500n });
    expect(positionOf({})).toBeNull();
  });

  it("reads a Date as is and ticks since the Unix epoch as milliseconds", () => {
    const created = new Date("2024-05-01T12:00:00.123Z");
    expect(toRecordedAt(created)).toEqual(created);
    const ticks = BigInt(created.getTime()) * 10_000n + 4_567n;
    expect(toRecordedAt(ticks)).toEqual(created);
    expect(toRecordedAt(ticks.toString())).toEqual(created);
  });
});

describe("recorded event mapping", () => {
  it("maps a JSON event, normalising numbers and missing metadata", () => {
    const event = toRecordedEvent(resolved({ n: 2, numeric: true }));
    expect(event).toEqual({
      id: "00000000-0000-4000-8000-000000000002",
      streamId: "payment-1",
      type: "PaymentAuthorized.v1",
      data: { n: 2 },
      metadata: {},
      revision: 1n,
      position: 200n,
      recordedAt: new Date(1_700_000_000_002),
    });
    expect(typeof event?.revision).toBe("bigint");
    expect(typeof event?.position).toBe("bigint");
  });

  it("keeps object metadata and drops binary metadata", () => {
    expect(toRecordedEvent(resolved({ n: 1, metadata: { requestId: "r-1" } }))?.metadata).toEqual({ requestId: "r-1" });
    expect(toRecordedEvent(resolved({ n: 1, metadata: new Uint8Array([1]) }))?.metadata).toEqual({});
  });

  it("skips binary events, non-object JSON and gaps", () => {
    expect(toRecordedEvent(resolved({ n: 1, isJson: false, data: new Uint8Array([1]) }))).toBeNull();
    expect(toRecordedEvent(resolved({ n: 1, data: [1, 2] }))).toBeNull();
    expect(toRecordedEvent(resolved({ n: 1, data: "text" }))).toBeNull();
    expect(toRecordedEvent({ commitPosition: 5n } satisfies ClientResolvedEvent)).toBeNull();
  });

  it("hides system streams and types, and types not asked for", () => {
    expect(toVisibleEvent(systemEvent(1), null)).toBeNull();
    expect(toVisibleEvent(resolved({ n: 1, streamId: "$settings" }), null)).toBeNull();
    expect(toVisibleEvent(resolved({ n: 1, type: "$>" }), null)).toBeNull();
    expect(toVisibleEvent(resolved({ n: 1, type: "A" }), new Set(["B"]))).toBeNull();
    expect(toVisibleEvent(resolved({ n: 1, type: "B" }), new Set(["B"]))?.type).toBe("B");
  });
});

describe("expected revision mapping", () => {
  it.each([
    ["no_stream", NO_STREAM],
    ["stream_exists", STREAM_EXISTS],
    ["any", ANY],
    [0n, 0n],
    [41n, 41n],
  ] as const)("maps %s", (expected, client) => {
    expect(toClientExpectedRevision(expected)).toBe(client);
  });
});

describe("concurrency error mapping", () => {
  const wrongVersion = (current: unknown) =>
    new WrongExpectedVersionError(undefined, { streamName: "payment-1", expected: 3n, current: current as bigint });

  it.each([
    ["no_stream", "no_stream"],
    [5n, 5n],
    [5, 5n],
    ["5", 5n],
    [-1n, "no_stream"],
    [undefined, "no_stream"],
  ] as const)("maps actual version %s to %s", (current, actual) => {
    const error = toConcurrencyError(wrongVersion(current), "payment-1", 3n);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ streamId: "payment-1", expected: 3n, actual });
    expect(toActualRevision(current)).toBe(actual);
  });

  it("reports stream_exists on a missing stream as no_stream", () => {
    const error = toConcurrencyError(wrongVersion("no_stream"), "payment-9", "stream_exists");
    expect(error).toMatchObject({ expected: "stream_exists", actual: "no_stream" });
  });

  it("recognises a WrongExpectedVersionError from another copy of the client by its type", () => {
    const foreign = Object.assign(new Error("wrong version"), { type: "wrong-expected-version", actualState: 2 });
    expect(toConcurrencyError(foreign, "s", 1n)).toMatchObject({ actual: 2n });
  });

  it("leaves other errors alone", () => {
    expect(toConcurrencyError(new UnavailableError(), "s", "any")).toBeNull();
    expect(toConcurrencyError(new Error("boom"), "s", "any")).toBeNull();
    expect(toConcurrencyError("boom", "s", "any")).toBeNull();
  });
});

describe("error classification", () => {
  it("treats not-found and deleted streams as missing", () => {
    expect(isMissingStreamError(new StreamNotFoundError(undefined, "s"))).toBe(true);
    expect(isMissingStreamError(StreamDeletedError.fromStreamName("s"))).toBe(true);
    expect(isMissingStreamError(new UnavailableError())).toBe(false);
  });

  it("answers a failure that says nothing about a leader change as not transient (a 500, logged)", () => {
    expect(isTransientError(new UnknownError(undefined, "Could not recognize Something Else"))).toBe(false);
    expect(isTransientError(new UnknownError())).toBe(false);
    expect(isTransientError(new AccessDeniedError())).toBe(false);
    expect(isTransientError(new Error("boom"))).toBe(false);
  });

  it("describes a failure in a line that is never empty: its class, type, gRPC code and message", () => {
    expect(describeFailure(new DeadlineExceededError())).toBe("DeadlineExceededError, type deadline-exceeded: (no message)");
    expect(describeFailure(new UnknownError(undefined, "Could not recognize Server Is Not Ready"))).toBe(
      "UnknownError, type unknown: Could not recognize Server Is Not Ready",
    );
    expect(describeFailure(Object.assign(new Error("14 UNAVAILABLE: read ECONNRESET"), { code: 14 }))).toBe("Error, code 14: 14 UNAVAILABLE: read ECONNRESET");
  });

});

describe("adapter over a fake client", () => {
  const log = () => [
    systemEvent(1),
    resolved({ n: 2, type: "A" }),
    resolved({ n: 3, type: "B" }),
    systemEvent(4),
    resolved({ n: 5, type: "A", numeric: true }),
  ];

  it("append validates first and writes nothing on bad input", async () => {
    const fake = new FakeClient();
    const store = eventStoreOnClient(fake.asClient());
    await expect(store.append("", [{ type: "A", data: {} }], "any")).rejects.toBeInstanceOf(InvalidAppendError);
    expect(fake.appends).toHaveLength(0);
  });

  it("append maps the result and the expected revision", async () => {
    const fake = new FakeClient();
    fake.appendResult = async () => ({ success: true, nextExpectedRevision: asBigInt(4), position: { commit: asBigInt(900), prepare: asBigInt(900) } });
    const store = eventStoreOnClient(fake.asClient());
    const result = await store.append("payment-1", [{ type: "A", data: { x: 1 } }], "stream_exists");
    expect(result).toEqual({ nextExpectedRevision: 4n, position: 900n });
    expect(fake.appends[0]?.[2]).toEqual({ streamState: STREAM_EXISTS, requiresLeader: true });
    expect(fake.appends[0]?.[1]).toMatchObject([{ type: "A", data: { x: 1 }, metadata: {}, contentType: "application/json" }]);
  });

  it("append takes the position from the stream when the server gives none", async () => {
    const fake = new FakeClient();
    fake.streams.set("payment-1", [resolved({ n: 7 })]);
    fake.appendResult = async () => ({ success: true, nextExpectedRevision: 6n });
    const store = eventStoreOnClient(fake.asClient());
    expect(await store.append("payment-1", [{ type: "A", data: {} }], "any")).toEqual({ nextExpectedRevision: 6n, position: 700n });
  });

  it("append turns WrongExpectedVersionError into ConcurrencyError", async () => {
    const fake = new FakeClient();
    fake.appendResult = async () => {
      throw new WrongExpectedVersionError(undefined, { streamName: "payment-1", expected: "no_stream", current: asBigInt(2) });
    };
    const store = eventStoreOnClient(fake.asClient());
    const error: unknown = await store.append("payment-1", [{ type: "A", data: {} }], "no_stream").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect(error).toMatchObject({ streamId: "payment-1", expected: "no_stream", actual: 2n });
  });

  it("readStream reads a missing stream as empty", async () => {
    const store = eventStoreOnClient(new FakeClient().asClient());
    expect(await store.readStream("nope")).toEqual([]);
  });

  it("readAll skips system events and the event at `after`", async () => {
    const store = eventStoreOnClient(new FakeClient(log()).asClient());
    const all = await store.readAll();
    expect(ids(all.events)).toEqual([2, 3, 5]);
    expect(all.checkpoint).toBe("500:500");
    expect(ids((await store.readAll({ after: "300:300" })).events)).toEqual([5]);
    expect(await store.readAll({ after: "500:500" })).toEqual({ events: [], checkpoint: "500:500" });
  });

  it("readAll with types still advances the checkpoint past skipped events", async () => {
    const store = eventStoreOnClient(new FakeClient([...log(), resolved({ n: 6, type: "A" })]).asClient());
    expect(await store.readAll({ types: ["B"] })).toMatchObject({ checkpoint: "600:600" });
    expect(ids((await store.readAll({ types: ["B"] })).events)).toEqual([3]);
    expect(await store.readAll({ after: "300:300", types: ["B"] })).toEqual({ events: [], checkpoint: "600:600" });
  });

  it("readAll pages through long runs of skipped events, so empty means caught up", async () => {
    const events = [...Array.from({ length: 7 }, (_, i) => systemEvent(i + 1)), resolved({ n: 8 }), resolved({ n: 9 })];
    const store = eventStoreOnClient(new FakeClient(events).asClient());
    const seen: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const batch: ReadAllResult = await store.readAll({ after, batchSize: 1 });
      if (batch.events.length === 0) break;
      seen.push(...ids(batch.events));
      after = batch.checkpoint;
    }
    expect(seen).toEqual([8, 9]);
    expect(after).toBe("900:900");
  });

  it.each([false, true])("readHead finds the last visible event past a page of system events (backwards inclusive: %s)", async (inclusive) => {
    const tail = Array.from({ length: 150 }, (_, i) => systemEvent(i + 4));
    const store = eventStoreOnClient(new FakeClient([...log().slice(0, 3), ...tail], inclusive).asClient());
    const head = await store.readHead();
    // The checkpoint lies past the trailing system events, where a full readAll scan also ends.
    expect(head).toEqual({ position: 300n, recordedAt: new Date(1_700_000_000_003), checkpoint: "15300:15300" });
    expect((await store.readAll({ types: ["nothing"] })).checkpoint).toBe(head.checkpoint);
    expect(await store.readAll({ after: head.checkpoint })).toEqual({ events: [], checkpoint: head.checkpoint });
  });

  it("readHead is all null on a log without visible events", async () => {
    const store = eventStoreOnClient(new FakeClient([systemEvent(1)]).asClient());
    expect(await store.readHead()).toEqual({ position: null, recordedAt: null, checkpoint: null });
  });

  it("readAll from a checkpoint where no record of $all begins is a RangeError, not an outage (KurrentDB answers it unavailable)", async () => {
    const store = eventStoreOnClient(new FakeClient([resolved({ n: 1 }), resolved({ n: 2 })]).asClient());
    await expect(store.readAll({ after: "150:150" })).rejects.toBeInstanceOf(RangeError);
    expect(ids((await store.readAll({ after: "100:100" })).events)).toEqual([2]);
    // Past the end of the log, the server answers with nothing.
    expect((await store.readAll({ after: "900:900" })).events).toEqual([]);
  });

  /** The live feed over the fake server's reads. */
  const liveFeed = (fake: FakeClient, options: { after?: string; pollIntervalMs?: number; signal: AbortSignal }, appends = new AppendSignal()) => {
    const client = fake.asClient();
    const readAllPage = async (fromPosition: Parameters<typeof client.readAll>[0] extends infer O ? (O extends { fromPosition?: infer P } ? P : never) : never, maxCount: number) => {
      const page: AllStreamResolvedEvent[] = [];
      for await (const record of client.readAll({ fromPosition, maxCount })) page.push(record);
      return page;
    };
    return readLive(readAllPage, { after: options.after ?? null, signal: options.signal }, { pollIntervalMs: options.pollIntervalMs ?? 60_000, coalesceMs: 10 }, appends);
  };

  it("the live feed reads $all after `after`, page by page, every visible event with its place in the log", async () => {
    const log = [resolved({ n: 5, type: "B" }), systemEvent(6), resolved({ n: 7, type: "A" }), ...Array.from({ length: 600 }, (_, i) => resolved({ n: 8 + i }))];
    const controller = new AbortController();
    const batches: PositionedBatch[] = [];
    for await (const batch of liveFeed(new FakeClient(log), { after: "500:500", signal: controller.signal })) {
      batches.push(batch);
      if (batches.flatMap((b) => b.events).length === 601) controller.abort();
    }
    const seen = batches.flatMap((batch) => ids(batch.events));
    expect(seen).toEqual([7, ...Array.from({ length: 600 }, (_, i) => 8 + i)]);
    // A page is a batch's worth of records (500), the one at `after` and system ones included.
    expect(batches.map((batch) => batch.events.length)).toEqual([499, 102]);
    expect(batches[0]?.positions.slice(0, 2)).toEqual([{ commit: 700n, prepare: 700n }, { commit: 800n, prepare: 800n }]);
    expect(batches.at(-1)?.checkpoint).toBe("60700:60700");
  });

  it("at the head, the live feed reads again at this process's next append, without waiting for the poll", async () => {
    const fake = new FakeClient([resolved({ n: 1 })]);
    const appends = new AppendSignal();
    const controller = new AbortController();
    const seen: number[] = [];
    const feeding = (async () => {
      for await (const batch of liveFeed(fake, { signal: controller.signal }, appends)) {
        seen.push(...ids(batch.events));
        if (seen.length === 2) controller.abort();
      }
    })();
    await expect.poll(() => seen, { timeout: 2_000, interval: 5 }).toEqual([1]);
    // Past the read after the events of that moment gathered: the feed waits at the head.
    await new Promise((resolve) => setTimeout(resolve, 100));
    fake.write(resolved({ n: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Written by another process: not read until the poll, a minute away.
    expect(seen).toEqual([1]);
    appends.appended();
    await feeding;
    expect(seen).toEqual([1, 2]);
  });

  it("at the head, the live feed reads at each poll for other processes' appends, and stops on abort while it waits", async () => {
    const fake = new FakeClient([]);
    const controller = new AbortController();
    const seen: number[] = [];
    const feeding = (async () => {
      for await (const batch of liveFeed(fake, { signal: controller.signal, pollIntervalMs: 20 })) seen.push(...ids(batch.events));
    })();
    fake.write(resolved({ n: 1 }));
    await expect.poll(() => seen, { timeout: 2_000, interval: 5 }).toEqual([1]);
    controller.abort();
    await feeding;
  });

  /**
   * $all as a live server has it: application events of several types, stream metadata, the
   * system projections' links and the node's statistics, with 40 records after the last "A".
   */
  const liveLog = (): AllStreamResolvedEvent[] => {
    const records: AllStreamResolvedEvent[] = [];
    for (let n = 1; n <= 60; n += 1) {
      const kind = n % 5;
      if (kind === 0) records.push(systemRecords.stats(n));
      else if (kind === 1) records.push(resolved({ n, type: "A" }));
      else if (kind === 2) records.push(systemRecords.link(n));
      else if (kind === 3) records.push(resolved({ n, type: "B" }));
      else records.push(systemRecords.metadata(n));
    }
    for (let n = 61; n <= 100; n += 1) records.push(n % 2 === 0 ? resolved({ n, type: "B" }) : systemRecords.stats(n));
    return records;
  };

  it("a caught-up filtered reader finds nothing after its checkpoint, whatever follows its last event", async () => {
    const fake = new FakeClient(liveLog());
    const store = eventStoreOnClient(fake.asClient());
    const delivered = await store.readAll({ types: ["A"] });
    expect(ids(delivered.events).at(-1)).toBe(56);
    const lastEvent = encodeCheckpoint({ commit: 5600n, prepare: 5600n });
    expect(await store.readAll({ after: lastEvent, types: ["A"], batchSize: 1 })).toMatchObject({ events: [] });
    fake.write(resolved({ n: 101, type: "A" }));
    expect(ids((await store.readAll({ after: lastEvent, types: ["A"], batchSize: 1 })).events)).toEqual([101]);
  });
});
