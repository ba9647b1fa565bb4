/**
 * The event store port. Every adapter (PostgreSQL, PGlite, EventStoreDB) implements it and
 * passes the same contract suite in tests/contract.
 *
 * What every store guarantees, and where they differ (the domain depends on no difference):
 * - Event ids. An event's id is unique within its stream: an append sent again with the same
 *   ids adds nothing. PostgreSQL also refuses an id used in any other stream, and answers a resent
 *   append ConcurrencyError (the stream moved past the expected revision); EventStoreDB accepts
 *   the same id in another stream, and answers a resent append at the same expectation with the
 *   revision it had, as if it were written now. The domain never chooses ids: `append` gives
 *   each event a fresh one, and a command that meets a conflict reads its stream again.
 * - Sizes. EventStoreDB and KurrentDB refuse an append over their maximum append size (by
 *   default 1 MiB on EventStoreDB 24.10, 256 MiB on KurrentDB 26.1) with AppendTooLargeError;
 *   PostgreSQL has no such limit. No event may grow with the data: a
 *   list of any length is recorded in chunks of bounded size.
 * - Errors. ConcurrencyError, InvalidAppendError and AppendTooLargeError mean nothing was
 *   written. EventStoreUnavailableError (no leader, no answer in time, a lost connection) means
 *   the store could not serve the call after the adapter retried what was safe to retry; an
 *   append that fails so may have landed. PostgreSQL's timeouts and full pool are OverloadedError
 *   or its own codes (src/overload.ts); the API answers both 503 with `retry-after`.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** What a caller hands to `append`: the store assigns id (when absent), revision, position and time. */
export interface NewEvent {
  id?: string;
  type: string;
  data: JsonObject;
  metadata?: JsonObject;
}

export interface RecordedEvent {
  id: string;
  streamId: string;
  type: string;
  data: JsonObject;
  metadata: JsonObject;
  /** 0-based position of the event inside its stream. */
  revision: bigint;
  /** Position in the global log; increases with every append but may have gaps. */
  position: bigint;
  recordedAt: Date;
}

/**
 * The revision an append expects the stream to be at:
 * `no_stream` (must not exist), `stream_exists` (must exist), `any`, or the exact last revision.
 */
export type ExpectedRevision = "no_stream" | "stream_exists" | "any" | bigint;

/** One stream's part of `appendLinked`. */
export interface StreamAppend {
  streamId: string;
  events: readonly NewEvent[];
  expected: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last appended event. */
  nextExpectedRevision: bigint;
  /** Global position of the last appended event. */
  position: bigint;
}

export type ReadDirection = "forwards" | "backwards";

export interface ReadStreamOptions {
  /** Revision to start at (inclusive). Defaults to the start (forwards) or the end (backwards). */
  from?: bigint;
  maxCount?: number;
  direction?: ReadDirection;
}

/**
 * An opaque resume point in the global log, produced by the adapter that reads it.
 * `null` means "from the beginning".
 */
export type Checkpoint = string;

export interface ReadAllOptions {
  after?: Checkpoint | null;
  batchSize?: number;
  /**
   * Only events of these types; the checkpoint still advances past the others: a read's to the
   * head, a subscription's as far as the store reports (on EventStoreDB, at the server's
   * checkpoints, so it may trail the head by a few dozen records).
   */
  types?: readonly string[];
}

export interface ReadAllResult {
  /** Empty from `readAll` only when no event (of the types asked for) follows `after`: the reader is caught up. */
  events: RecordedEvent[];
  /** Where to resume; unchanged from `after` when nothing new was read. */
  checkpoint: Checkpoint | null;
}

/** The newest event every reader can see; all null on an empty log. */
export interface Head {
  position: bigint | null;
  recordedAt: Date | null;
  /**
   * Resumes right after the head: `readAll({ after })` from here returns only later events. A
   * reader of some types need not reach it; whether one is caught up is `readAll` with its types
   * from its checkpoint returning no events.
   */
  checkpoint: Checkpoint | null;
}

export interface SubscribeOptions extends ReadAllOptions {
  signal: AbortSignal;
  /**
   * Resolves when someone waits for this subscriber to catch up (at once if someone does now).
   * A store that lets the appends of a moment gather before it reads them reads at once then.
   * `signal` aborts when the subscription no longer listens.
   */
  awaited?: (signal: AbortSignal) => Promise<void>;
}

export interface EventStore {
  /**
   * Appends atomically. Throws ConcurrencyError when the stream is not at `expected`, and
   * AppendTooLargeError when the store refuses the append for its size (EventStoreDB and
   * KurrentDB: their MaxAppendSize): keep every event bounded, whatever the data. An id given in `events` is kept
   * (see "Event ids" above); one left out is made fresh.
   */
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams as one write where the store can: on PostgreSQL in one
   * transaction, all or none (a conflict on any stream throws its ConcurrencyError and writes
   * nothing). KurrentDB 25.1 and later take them in one request, all or none too (those at an
   * exact revision or `no_stream`; others as below). EventStoreDB 24.10 has no multi-stream
   * append: there they are appended one after another in the order given, each durable before
   * the next is sent, so an earlier one may land without a later one, never the reverse. The
   * results are in the order given.
   */
  appendLinked(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** A stream that does not exist reads as empty. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Several whole streams in one read where the store can; each that does not exist reads as empty. */
  readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>>;
  readAll(options?: ReadAllOptions): Promise<ReadAllResult>;
  /** The newest event every reader can see. */
  readHead(): Promise<Head>;
  /**
   * Whether a committed event (of these types, or any) follows `after`, even one `readAll` cannot
   * return yet (on PostgreSQL it returns an event only once every older transaction has ended).
   */
  hasEventsAfter(after: Checkpoint | null, types?: readonly string[]): Promise<boolean>;
  /**
   * A live feed of the global log: yields every batch after `after`, then waits for new ones,
   * until the signal aborts. Never skips an event, even when writers commit out of order.
   */
  subscribe(options: SubscribeOptions): AsyncIterable<ReadAllResult>;
  close(): Promise<void>;
}
