import {
  BACKWARDS,
  END,
  KurrentDBClient,
  FORWARDS,
  START,
  UnavailableError,
  jsonEvent,
  type AllStreamResolvedEvent,
  type ReadPosition,
} from "@kurrent/kurrentdb-client";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import { eventStoreFirstAnswer, eventStoreLeaderElection } from "../../retry/policies.ts";
import { retry } from "../../retry/retry.ts";
import { EventStoreUnavailableError } from "../errors.ts";
import { validateAppend, type ValidAppend } from "../validate-append.ts";
import type {
  AppendResult,
  Checkpoint,
  EventStore,
  ExpectedRevision,
  Head,
  JsonObject,
  NewEvent,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
} from "../port.ts";
import {
  comparePositions,
  decodeCheckpoint,
  describeFailure,
  isNotLeaderNode,
  encodeCheckpoint,
  isMissingStreamError,
  isTransientError,
  positionOf,
  toBigInt,
  toClientExpectedRevision,
  toAppendTooLargeError,
  toConcurrencyError,
  toLogPosition,
  toRecordedEvent,
  toVisibleEvent,
  type LogPosition,
} from "./codec.ts";
import { DEFAULT_COALESCE_MS, DEFAULT_POLL_INTERVAL_MS } from "../gather.ts";
import { appendItems, detectGroupedAppend, reconnectToLeader, sendGroup, type GroupedAppendCall, type ItemOutcome } from "./grouped-append.ts";
import { SharedFeed } from "./shared-feed.ts";
import { AppendSignal, readLive } from "./live-reads.ts";

/** Records per read when scanning $all, however few events the caller wants. */
const PAGE_SIZE = 100;

/**
 * How long reads may be unavailable before they move to a new client. The client reads through a
 * native bridge that never connects when its first connection failed (the node was down then):
 * seen live, its reads answered UnavailableError for good after the node was back, which kept a
 * new instance not ready; a new client's bridge connects at its first read.
 */
const RENEW_READER_AFTER_MS = 3_000;

export interface EventStoreDbOptions {
  /** How long a call that met a transient failure is tried again (`eventStoreLeaderElection`). */
  retryForMs?: number;
  /**
   * A new client on the same server, for reads once the client's have been unavailable for
   * RENEW_READER_AFTER_MS (see `reading`); without it reads stay on the client given.
   */
  newReader?: () => KurrentDBClient;
  /** The most appends one grouped request takes (see grouped-append.ts); the rest go in the next. */
  maxGroup?: number;
  /** How long a live subscriber lets the events of a moment gather (see gatherMoment), as the PostgreSQL store's option. */
  coalesceMs?: number;
  /** How often a live subscriber at the head reads for other processes' appends, as the PostgreSQL store's option. */
  pollIntervalMs?: number;
}

/**
 * The EventStore port on KurrentDB or EventStoreDB, e.g. `kurrentdb://localhost:2113?tls=false`
 * (`esdb://` too), or a cluster's nodes: `kurrentdb://node1:2113,node2:2113,node3:2113?tls=false`.
 */
export function createEventStoreDbEventStore(connectionString: string): EventStore {
  return eventStoreOnClient(KurrentDBClient.connectionString(connectionString), {
    newReader: () => KurrentDBClient.connectionString(connectionString),
  });
}

/**
 * Resolves once the server answers a read, trying again while it refuses (a node still starting),
 * or throws EventStoreUnavailableError after `withinMs`, naming where it looked (without the
 * credentials). For the start: a wrong URL or a stopped server ends it at once, where the
 * service would otherwise run and answer every request 503.
 */
export async function awaitFirstAnswer(
  client: KurrentDBClient,
  connectionString: string,
  withinMs = eventStoreFirstAnswer.withinMs,
): Promise<void> {
  const started = performance.now();
  const left = () => withinMs - (performance.now() - started);
  try {
    await retry({ ...eventStoreFirstAnswer, withinMs }, () =>
      collect(client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1, deadline: Math.max(1, Math.round(left())) })),
    );
  } catch (error) {
    const where = connectionString.replace(/\/\/[^@/]*@/, "//");
    throw new EventStoreUnavailableError(
      `EventStoreDB at ${where} did not answer within ${withinMs} ms (${describeFailure(error)}); check EVENTSTORE_URL and that the server runs`,
      { cause: error },
    );
  }
}

/** `awaitFirstAnswer` on a client of its own, closed again. */
export async function checkEventStoreDbAnswers(connectionString: string): Promise<void> {
  const client = KurrentDBClient.connectionString(connectionString);
  try {
    await awaitFirstAnswer(client, connectionString);
  } finally {
    await client.dispose();
  }
}

/**
 * Whether an append may be sent again when its outcome is unknown (the connection dropped, the
 * deadline passed): at an exact revision or `no_stream`, EventStoreDB takes the same event ids
 * again as the append it already wrote, and adds nothing; at `any` or `stream_exists` it might
 * write them twice.
 */
const isSafeToResend = (expected: ExpectedRevision): boolean => typeof expected === "bigint" || expected === "no_stream";

/** Appends that may share a grouped request: those safe to send again, as the request may need to be. */
const isGroupable = (valid: ValidAppend): boolean => isSafeToResend(valid.expected);

const utf8 = new TextEncoder();

/**
 * Metadata as its JSON's bytes, which the client sends as they are; given the object, it would
 * encode the JSON to base64 and protobuf decode that back to bytes in JavaScript, twice an event.
 * Readers see the same JSON either way.
 */
const jsonBytes = (metadata: JsonObject): Uint8Array => utf8.encode(JSON.stringify(metadata));

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}

/** The adapter over an existing client; exported so unit tests can hand it a fake one. */
export function eventStoreOnClient(
  client: KurrentDBClient,
  {
    retryForMs = eventStoreLeaderElection.withinMs,
    newReader,
    maxGroup = 256,
    coalesceMs = DEFAULT_COALESCE_MS,
    pollIntervalMs = DEFAULT_POLL_INTERVAL_MS,
  }: EventStoreDbOptions = {},
): EventStore {
  /**
   * Whether a call gave up waiting for the store and none has succeeded since: then calls are
   * tried once, so that a long outage is answered at once rather than after a wait per call.
   */
  let unavailable = false;

  /** The call, again after a transient failure while retrying is allowed and time is left; else EventStoreUnavailableError. */
  async function patiently<T>(call: () => Promise<T>, retrying = true): Promise<T> {
    const policy = {
      ...eventStoreLeaderElection,
      withinMs: retryForMs,
      retries: (error: unknown) => retrying && !unavailable && eventStoreLeaderElection.retries(error),
    };
    try {
      const result = await retry(policy, call);
      unavailable = false;
      return result;
    } catch (error) {
      if (!isTransientError(error)) throw error;
      if (retrying) unavailable = true;
      throw new EventStoreUnavailableError(`EventStoreDB cannot serve the call now: ${describeFailure(error)}`, { cause: error });
    }
  }

  /** The client reads go through: the one given, until reads move to a new one (see RENEW_READER_AFTER_MS). */
  let reader = client;
  /** Since when the reader's reads have failed, none succeeding since. */
  let readerFailingSince: number | null = null;

  /** A read through the reader, patiently; reads unavailable for too long move to a new reader. */
  function reading<T>(read: (reader: KurrentDBClient) => Promise<T>): Promise<T> {
    return patiently(async () => {
      const used = reader;
      try {
        const result = await read(used);
        if (used === reader) readerFailingSince = null;
        return result;
      } catch (error) {
        if (used !== reader) throw error;
        if (!isTransientError(error)) {
          // The server's answer: the reader reaches it.
          readerFailingSince = null;
        } else if (newReader) {
          readerFailingSince ??= performance.now();
          if (performance.now() - readerFailingSince >= RENEW_READER_AFTER_MS) {
            reader = newReader();
            readerFailingSince = null;
            if (used !== client) void used.dispose();
          }
        }
        throw error;
      }
    });
  }

  const readAllPage = (fromPosition: ReadPosition, maxCount: number, backwards = false): Promise<AllStreamResolvedEvent[]> =>
    reading(async (reader) => {
      const read = () => collect(reader.readAll({ fromPosition, maxCount, direction: backwards ? BACKWARDS : FORWARDS }));
      try {
        return await read();
      } catch (error) {
        if (typeof fromPosition !== "object" || !(error instanceof UnavailableError)) throw error;
        // KurrentDB answers a read from a position where no record of $all begins as unavailable
        // (26.1, live): refused again while a read from the start is served, it is no place in the log.
        try {
          return await read();
        } catch (second) {
          if (!(second instanceof UnavailableError) || !(await servesFromStart(reader))) throw second;
          throw new RangeError(`No record of $all begins at ${fromPosition.commit}:${fromPosition.prepare}.`, { cause: second });
        }
      }
    });

  const servesFromStart = (reader: KurrentDBClient) =>
    collect(reader.readAll({ fromPosition: START, maxCount: 1 })).then(
      () => true,
      () => false,
    );

  /** Only an idempotent re-append comes back without a position: take it from the stream's last event. */
  async function positionOfRevision(streamId: string, revision: bigint): Promise<bigint> {
    const [resolved] = await reading((reader) => collect(reader.readStream(streamId, { fromRevision: revision, maxCount: 1 })));
    const position = resolved ? positionOf(resolved) : null;
    if (position) return position.commit;
    throw new Error(`EventStoreDB reported no position for revision ${revision} of stream ${streamId}`);
  }

  /**
   * The server's call for appends to several streams in one request, asked once (at the first
   * append); null on servers before KurrentDB 25.1, where each stream's append is its own call.
   */
  let groupedCall: Promise<GroupedAppendCall | null> | null = null;
  function groupedAppendCall(): Promise<GroupedAppendCall | null> {
    groupedCall ??= patiently(() => detectGroupedAppend(client)).catch((error: unknown) => {
      groupedCall = null;
      throw error;
    });
    return groupedCall;
  }

  /** One append, or the appends of one `appendLinked`: the appends in flight go out as one request. */
  const groupCommit = batchWhileBusy(
    async (items: ValidAppend[][]): Promise<ItemOutcome[]> => {
      const call = await groupedAppendCall();
      if (call === null) throw new Error("grouped appends are sent only to a server that takes them");
      // Every grouped append is safe to send again (see isGroupable): the server keeps it once.
      const send = (appends: readonly ValidAppend[]) =>
        sendGroup(client, call, appends).catch(async (error: unknown) => {
          if (isNotLeaderNode(error)) await reconnectToLeader(client);
          throw error;
        });
      return appendItems(items, (appends) => patiently(() => send(appends)), failureOf);
    },
    { maxBatch: maxGroup },
  );

  /** The port's error for an append's failure: a conflict, too large, or as it came. */
  function failureOf(error: unknown, appends: readonly ValidAppend[]): Error {
    const [first] = appends;
    const portError = first && (toConcurrencyError(error, first.streamId, first.expected) ?? toAppendTooLargeError(error, first.streamId));
    return portError || (error instanceof Error ? error : new Error(String(error)));
  }

  /** A stream's append on its own call, sent again after an unknown outcome only when that is safe. */
  async function appendAlone(valid: ValidAppend): Promise<AppendResult> {
    // The same ids on every attempt: that is what lets the server recognise an append it already wrote.
    const sent = valid.events.map((event) => jsonEvent({ ...event, metadata: event.metadata && jsonBytes(event.metadata) }));
    try {
      // Required of the leader: a follower the client reached during an election would hold the
      // append, forwarding it, until its timeout (4.3-5 s live on EventStoreDB 24.10, answers
      // resuming 2.5-5.2 s after the new leader's election); asked for the leader, it answers at
      // once, naming it once elected, and the client moves there (answers within 0.1 s of it).
      const result = await patiently(
        () => client.appendToStream(valid.streamId, sent, { streamState: toClientExpectedRevision(valid.expected), requiresLeader: true }),
        isSafeToResend(valid.expected),
      );
      const nextExpectedRevision = toBigInt(result.nextExpectedRevision, "revision");
      const position = result.position
        ? toLogPosition(result.position).commit
        : await positionOfRevision(valid.streamId, nextExpectedRevision);
      return { nextExpectedRevision, position };
    } catch (error) {
      throw failureOf(error, [valid]);
    }
  }

  /**
   * Appends, each all or none, in one grouped request with the others in flight where the server
   * takes them and each is safe to send again; else one after another, each on its own call.
   */
  async function appendAll(appends: ValidAppend[]): Promise<AppendResult[]> {
    if (appends.every(isGroupable) && (await groupedAppendCall()) !== null) {
      const outcome = await groupCommit(appends);
      if (outcome instanceof Error) throw outcome;
      appendSignal.appended();
      return outcome;
    }
    const results: AppendResult[] = [];
    for (const valid of appends) results.push(await appendAlone(valid));
    appendSignal.appended();
    return results;
  }

  // The projections' live feeds share one read of $all at its head (see SharedFeed), woken by this process's appends.
  const appendSignal = new AppendSignal();
  const feed = new SharedFeed(
    (after, signal, awaited) =>
      readLive(readAllPage, { after, signal, awaited }, { pollIntervalMs, coalesceMs }, appendSignal),
    (options) => store.readAll(options),
  );
  const store: EventStore = {
    async append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
      const [result] = await appendAll([validateAppend(streamId, events, expected)]);
      return result!;
    },

    async appendLinked(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
      return appendAll(appends.map(({ streamId, events, expected }) => validateAppend(streamId, events, expected)));
    },

    async readStream(streamId: string, { from, maxCount, direction = "forwards" }: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
      if (maxCount !== undefined && maxCount <= 0) return [];
      const backwards = direction === "backwards";
      const read = (reader: KurrentDBClient) =>
        reader.readStream(streamId, {
          direction: backwards ? BACKWARDS : FORWARDS,
          fromRevision: from ?? (backwards ? END : START),
          ...(maxCount === undefined ? {} : { maxCount }),
        });
      try {
        // A missing stream is reported while iterating, not when the read is created.
        const resolved = await reading((reader) => collect(read(reader)));
        return resolved.flatMap((item) => toRecordedEvent(item) ?? []);
      } catch (error) {
        if (isMissingStreamError(error)) return [];
        throw error;
      }
    },

    async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
      // One stream a read here: they go out together.
      return new Map(await Promise.all(streamIds.map(async (streamId) => [streamId, await store.readStream(streamId)] as const)));
    },

    async readAll({ after = null, batchSize = 500, types }: ReadAllOptions = {}): Promise<ReadAllResult> {
      const limit = Math.max(1, batchSize);
      const typeSet = types ? new Set(types) : null;
      const start = decodeCheckpoint(after);
      let cursor = start;
      const events: RecordedEvent[] = [];
      // v6's readAll takes no server-side filter, so system and unwanted events are skipped here and
      // the scan goes on until a full batch or the end of the log: an empty result means caught up.
      // One extra event per page because a read from a position includes the event at it.
      const pageSize = Math.max(limit, PAGE_SIZE) + 1;
      for (;;) {
        const page = await readAllPage(cursor ?? START, pageSize);
        let progressed = false;
        for (const resolved of page) {
          const position = positionOf(resolved);
          if (position === null || (cursor !== null && comparePositions(position, cursor) <= 0)) continue;
          cursor = position;
          progressed = true;
          const event = toVisibleEvent(resolved, typeSet);
          if (event) events.push(event);
          if (events.length === limit) break;
        }
        if (events.length === limit || page.length < pageSize || !progressed) break;
      }
      return { events, checkpoint: cursor && cursor !== start ? encodeCheckpoint(cursor) : after };
    },

    async hasEventsAfter(after: Checkpoint | null, types?: readonly string[]): Promise<boolean> {
      // EventStoreDB reads every committed event: what readAll does not return does not exist.
      return (await store.readAll({ after, batchSize: 1, types })).events.length > 0;
    },

    async readHead(): Promise<Head> {
      // The checkpoint is the newest record of all, system ones included, so that it equals the
      // checkpoint readAll reports once it has scanned to the end of the log.
      let newest: LogPosition | null = null;
      let before: LogPosition | null = null;
      for (;;) {
        const page = await readAllPage(before ?? END, PAGE_SIZE, true);
        let progressed = false;
        for (const resolved of page) {
          const position = positionOf(resolved);
          if (position === null || (before !== null && comparePositions(position, before) >= 0)) continue;
          before = position;
          newest ??= position;
          progressed = true;
          const event = toVisibleEvent(resolved, null);
          if (event) return { position: event.position, recordedAt: event.recordedAt, checkpoint: encodeCheckpoint(newest) };
        }
        if (page.length < PAGE_SIZE || !progressed) return { position: null, recordedAt: null, checkpoint: null };
      }
    },

    subscribe(options) {
      return feed.subscribe(options);
    },

    async close(): Promise<void> {
      await Promise.all([client.dispose(), reader === client ? undefined : reader.dispose()]);
    },
  };
  return store;
}
