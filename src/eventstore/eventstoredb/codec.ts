/**
 * Pure translations between the port's types and @kurrent/kurrentdb-client's, kept apart from the
 * adapter so they can be unit-tested without a server.
 */
import {
  ANY,
  ErrorType,
  MaxAppendSizeExceededError,
  NO_STREAM,
  STREAM_EXISTS,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendStreamState,
} from "@kurrent/kurrentdb-client";
import { AppendTooLargeError, ConcurrencyError } from "../errors.ts";
import type { Checkpoint, ExpectedRevision, JsonObject, RecordedEvent } from "../port.ts";

/** A place in the $all log, as EventStoreDB reports it. */
export interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

/** Revisions and positions are typed bigint, but older clients and some code paths hand out numbers or strings. */
export type Integral = bigint | number | string;

/** The parts of the client's recorded event this adapter reads, loosened to what arrives at runtime. */
export interface ClientRecordedEvent {
  streamId: string;
  id: string;
  type: string;
  isJson: boolean;
  revision: Integral;
  created: Date | Integral;
  data: unknown;
  metadata?: unknown;
  position?: { commit: Integral; prepare: Integral } | undefined;
}

export interface ClientResolvedEvent {
  event?: ClientRecordedEvent | undefined;
  commitPosition?: Integral | undefined;
}

export function toBigInt(value: Integral, what: string): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new RangeError(`EventStoreDB returned a ${what} that is not a safe integer: ${value}`);
  }
  if (typeof value === "string" && !/^-?\d+$/.test(value)) {
    throw new RangeError(`EventStoreDB returned a ${what} that is not an integer: ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

export function toLogPosition(position: { commit: Integral; prepare: Integral }): LogPosition {
  return { commit: toBigInt(position.commit, "commit position"), prepare: toBigInt(position.prepare, "prepare position") };
}

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function encodeCheckpoint(position: LogPosition): Checkpoint {
  return `${position.commit}:${position.prepare}`;
}

export function decodeCheckpoint(checkpoint: Checkpoint | null | undefined): LogPosition | null {
  if (checkpoint === null || checkpoint === undefined) return null;
  const match = /^(\d+):(\d+)$/.exec(checkpoint);
  if (!match?.[1] || !match[2]) {
    throw new RangeError(`Not an EventStoreDB checkpoint (expected "commit:prepare"): ${JSON.stringify(checkpoint)}`);
  }
  return { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
}

/** The resolved event's place in $all: the record's own position, else the commit position alone. */
export function positionOf(resolved: ClientResolvedEvent): LogPosition | null {
  if (resolved.event?.position) return toLogPosition(resolved.event.position);
  if (resolved.commitPosition !== undefined) {
    const commit = toBigInt(resolved.commitPosition, "commit position");
    return { commit, prepare: commit };
  }
  return null;
}

/** `created` is a Date in v6; older clients passed .NET ticks (100 ns) since the Unix epoch. */
export function toRecordedAt(created: Date | Integral): Date {
  if (created instanceof Date) return new Date(created.getTime());
  return new Date(Number(toBigInt(created, "creation time") / 10_000n));
}

export function toClientExpectedRevision(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case "no_stream":
      return NO_STREAM;
    case "stream_exists":
      return STREAM_EXISTS;
    case "any":
      return ANY;
    default:
      return expected;
  }
}

/** The client reports a missing stream as "no_stream", and some servers as revision -1. */
export function toActualRevision(actual: unknown): bigint | "no_stream" {
  if (actual === undefined || actual === null || actual === NO_STREAM) return "no_stream";
  if (typeof actual !== "bigint" && typeof actual !== "number" && typeof actual !== "string") {
    throw new TypeError(`EventStoreDB returned an unreadable actual revision: ${String(actual)}`);
  }
  const revision = toBigInt(actual, "actual revision");
  return revision < 0n ? "no_stream" : revision;
}

function isWrongExpectedVersion(error: unknown): error is Pick<WrongExpectedVersionError, "actualState"> {
  if (error instanceof WrongExpectedVersionError) return true;
  // A second copy of the client (another install) would fail instanceof; its `type` still says what it is.
  return (
    typeof error === "object" &&
    error !== null &&
    "type" in error &&
    error.type === ErrorType.WRONG_EXPECTED_VERSION &&
    "actualState" in error
  );
}

/** The port's ConcurrencyError for a client WrongExpectedVersionError, or null for any other error. */
export function toConcurrencyError(error: unknown, streamId: string, expected: ExpectedRevision): ConcurrencyError | null {
  if (!isWrongExpectedVersion(error)) return null;
  return new ConcurrencyError(streamId, expected, toActualRevision(error.actualState));
}

/** The client's errors for an append over the server's size limits: a v1 append's, a grouped append's whole, and one record's. */
const APPEND_TOO_LARGE: ReadonlySet<string> = new Set([
  ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED,
  ErrorType.TRANSACTION_MAX_SIZE_EXCEEDED,
  ErrorType.APPEND_RECORD_SIZE_EXCEEDED,
]);

/**
 * gRPC's RESOURCE_EXHAUSTED, which the client does not convert: the request was larger than the
 * server takes in one message (on KurrentDB 26.1, 1.5 × MaxAppendSize for a grouped append).
 */
const RESOURCE_EXHAUSTED = 8;

/** The request was over the size of a message the server receives: nothing of it was written. */
export function isMessageTooLarge(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === RESOURCE_EXHAUSTED;
}

/** The port's AppendTooLargeError for the client's errors of an append too large, or null for any other error. */
export function toAppendTooLargeError(error: unknown, streamId: string): AppendTooLargeError | null {
  if (error instanceof MaxAppendSizeExceededError) return new AppendTooLargeError(streamId, error.maxAppendSize);
  if (isMessageTooLarge(error)) return new AppendTooLargeError(streamId, undefined);
  // A second copy of the client (another install) would fail instanceof; its `type` still says what it is.
  if (typeof error !== "object" || error === null || !("type" in error) || typeof error.type !== "string" || !APPEND_TOO_LARGE.has(error.type)) return null;
  const limit = "maxAppendSize" in error ? error.maxAppendSize : "maxSize" in error ? error.maxSize : undefined;
  return new AppendTooLargeError(streamId, typeof limit === "number" ? limit : undefined);
}

/** A stream read of a stream that never existed or was deleted: the port reads it as empty. */
export function isMissingStreamError(error: unknown): boolean {
  if (error instanceof StreamNotFoundError || error instanceof StreamDeletedError) return true;
  if (typeof error !== "object" || error === null || !("type" in error)) return false;
  return error.type === ErrorType.STREAM_NOT_FOUND || error.type === ErrorType.STREAM_DELETED;
}

/** What the client says when no node of a cluster answered its gossip (all down, or no leader yet). */
const DISCOVERY_FAILED = /^Failed to discover after \d+ attempts/;

/**
 * gRPC status codes of a call the server may serve next time: CANCELLED (1), DEADLINE_EXCEEDED
 * (4), ABORTED (10), UNAVAILABLE (14). The client converts most failures to its own errors, but
 * not all: when it reconnects, its first call (which asks the server what it supports) fails with
 * the raw gRPC error.
 */
const TRANSIENT_GRPC_STATUSES: ReadonlySet<number> = new Set([1, 4, 10, 14]);

const TRANSIENT_TYPES: ReadonlySet<string> = new Set([
  ErrorType.NOT_LEADER,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.UNAVAILABLE,
  ErrorType.CANCELLED,
  ErrorType.TIMEOUT,
]);

/**
 * What a node answers, in words, while it cannot take a write: it is not ready (starting, or
 * electing a leader), too busy, or a follower that knows no leader yet. The client's batch append
 * (its `appendToStream`) does not recognise these answers and reports an UnknownError
 * "Could not recognize Server Is Not Ready" (seen live in a leader change of EventStoreDB 24.10).
 */
const NODE_NOT_SERVING = /\b(Server Is Not Ready|Server Is Busy|No leader info available)\b/;

/**
 * KurrentDB's answer to a grouped append sent to a follower (gRPC FAILED_PRECONDITION, reason
 * NOT_LEADER_NODE: "The server is not the leader node and cannot handle the request"). The client
 * neither recognises it (an UnknownError) nor reconnects on it, as it does on the v1 calls'
 * not-leader answer: see `reconnectToLeader`.
 */
export function isNotLeaderNode(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === 9 && /\bnot the leader node\b/.test(error.message);
}

/**
 * The server could not serve the call now, though it may the next one: not the leader (the client
 * reconnects to the one it names), not ready or too busy (a leader change), no answer within the
 * deadline, unreachable or a connection lost (the client reconnects), a call the server cancelled
 * or timed out, or no node found.
 */
export function isTransientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (DISCOVERY_FAILED.test(error.message) || isNotLeaderNode(error)) return true;
  const transientCode = "code" in error && typeof error.code === "number" && TRANSIENT_GRPC_STATUSES.has(error.code);
  if (!("type" in error)) {
    // A raw gRPC error has a numeric code and details; Node's own errors have string codes.
    return transientCode && "details" in error;
  }
  if (typeof error.type === "string" && TRANSIENT_TYPES.has(error.type)) return true;
  // What the client does not recognise keeps the call's gRPC code (ABORTED without details, say).
  return error.type === ErrorType.UNKNOWN && (transientCode || NODE_NOT_SERVING.test(error.message));
}

/**
 * The error in one line for a log or a 503's reason, never empty: its class, the client's error
 * type and gRPC code when it has them, and its message (some, e.g. a timeout the server reports in
 * a batch append's answer, have none).
 */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const type = "type" in error && typeof error.type === "string" ? error.type : null;
  const code = "code" in error && (typeof error.code === "number" || typeof error.code === "string") ? error.code : null;
  const kind = [error.constructor.name || error.name, type && `type ${type}`, code !== null && `code ${code}`].filter(Boolean).join(", ");
  return `${kind}: ${error.message.trim() || "(no message)"}`;
}

/**
 * A subscription to $all ended, by an error (`cause`) or by the server, in a way subscribing
 * again may mend: any end but an `isPermanentSubscriptionError`.
 */
export class SubscriptionDroppedError extends Error {
  constructor(cause: unknown) {
    super("The subscription to $all dropped", { cause });
    this.name = "SubscriptionDroppedError";
  }
}

/** Errors that resubscribing cannot cure. */
export function isPermanentSubscriptionError(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("type" in error)) return false;
  return (
    error.type === ErrorType.ACCESS_DENIED ||
    error.type === ErrorType.INVALID_ARGUMENT ||
    error.type === ErrorType.UNSUPPORTED
  );
}

export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith("$") || type.startsWith("$");
}

function asJsonObject(value: unknown): JsonObject | null {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Uint8Array) return null;
  return value as JsonObject;
}

/**
 * The one event property a grouped append (see grouped-append.ts) records the metadata in, as
 * JSON: such a request takes properties of string values only, where the service's metadata
 * nests objects (a hash chain's link, say).
 */
export const METADATA_PROPERTY = "ledger.metadata";

/**
 * The metadata as appended. An event of a grouped append reads back as its properties plus the
 * server's `$schema.name` and `$schema.format`: its metadata is the JSON in METADATA_PROPERTY.
 */
function toMetadata(recorded: unknown): JsonObject {
  const metadata = asJsonObject(recorded) ?? {};
  const appended = metadata[METADATA_PROPERTY];
  if (typeof appended !== "string") return metadata;
  const parsed: unknown = JSON.parse(appended);
  return asJsonObject(parsed) ?? {};
}

/** Null for link-less gaps, binary events and JSON that is not an object: the port only carries JSON objects. */
export function toRecordedEvent(resolved: ClientResolvedEvent): RecordedEvent | null {
  const event = resolved.event;
  if (!event?.isJson) return null;
  const data = asJsonObject(event.data);
  const position = positionOf(resolved);
  if (data === null || position === null) return null;
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data,
    metadata: toMetadata(event.metadata),
    revision: toBigInt(event.revision, "revision"),
    position: position.commit,
    recordedAt: toRecordedAt(event.created),
  };
}

/** What readAll and subscribe hand out: application JSON events, optionally of some types only. */
export function toVisibleEvent(resolved: ClientResolvedEvent, types: ReadonlySet<string> | null): RecordedEvent | null {
  const event = resolved.event;
  if (!event || isSystemEvent(event.streamId, event.type)) return null;
  if (types !== null && !types.has(event.type)) return null;
  return toRecordedEvent(resolved);
}

/** An anchored regex (the server uses .NET regexes) matching exactly these event types. */
export function eventTypesRegex(types: readonly string[]): string {
  const escaped = types.map((type) => type.replace(/[.*+?^${}()|[\]\\#]/g, "\\$&"));
  return `^(?:${escaped.join("|")})$`;
}
