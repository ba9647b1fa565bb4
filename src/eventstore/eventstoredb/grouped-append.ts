/**
 * Appends to several streams in one request, on servers that have one (KurrentDB 25.1 and later):
 * `appendRecords` (26.1) or `multiStreamAppend` (25.1, 26.0). Such a request is all or nothing, so
 * a stream that is not at its expected revision would fail every stream of it: here it fails
 * alone, and the others are sent again without it, as the PostgreSQL store's group commit does.
 */
import {
  ErrorType,
  STREAM_STATE,
  jsonEvent,
  type AppendRecordsResult,
  type ConsistencyCheck,
  type KurrentDBClient,
} from "@kurrent/kurrentdb-client";
import { ConcurrencyError } from "../errors.ts";
import type { AppendResult } from "../port.ts";
import type { ValidAppend } from "../validate-append.ts";
import { METADATA_PROPERTY, isMessageTooLarge, toActualRevision, toClientExpectedRevision } from "./codec.ts";

/** The server's call that takes several streams' appends in one request. */
export type GroupedAppendCall = "appendRecords" | "multiStreamAppend";

/** gRPC's UNIMPLEMENTED: the server has no such call. */
const UNIMPLEMENTED = 12;

/**
 * Which grouped call the server has, asked with an empty request: the client refuses it itself
 * (UnsupportedError) when the server's list of features lacks the call, the server refuses it as
 * invalid when it has it; null when it has neither (EventStoreDB 24.10 and older). A failure that
 * says nothing of the call (the server unreachable) is thrown.
 */
export async function detectGroupedAppend(client: KurrentDBClient): Promise<GroupedAppendCall | null> {
  for (const call of ["appendRecords", "multiStreamAppend"] as const) {
    try {
      await (call === "appendRecords" ? client.appendRecords([]) : client.multiStreamAppend([]));
      return call;
    } catch (error) {
      if (isNotThere(error)) continue;
      if (isAnswerToTheCall(error)) return call;
      throw error;
    }
  }
  return null;
}

function isNotThere(error: unknown): boolean {
  const unsupported = typeof error === "object" && error !== null && "type" in error && error.type === ErrorType.UNSUPPORTED;
  return unsupported || grpcCode(error) === UNIMPLEMENTED;
}

/** A stream no one writes: the leader's nudge (see `reconnectToLeader`) names it, and writes nothing to it. */
const LEADER_PROBE_STREAM = "$ledger-leader-probe";

/**
 * Makes the client leave a follower for the leader after a grouped append met the follower's
 * not-leader answer (isNotLeaderNode), which the client does not act on: an append that requires
 * the leader, at a revision its stream never has, is answered not-leader by a follower (naming
 * the leader, which the client then connects to) and refused as a conflict by the leader. It
 * writes nothing either way; its own failure is of no interest.
 */
export async function reconnectToLeader(client: KurrentDBClient): Promise<void> {
  await client
    .appendToStream(LEADER_PROBE_STREAM, jsonEvent({ type: "LeaderProbe", data: {} }), { streamState: BigInt(Number.MAX_SAFE_INTEGER), requiresLeader: true })
    .catch(() => undefined);
}

function grpcCode(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "code" in error && typeof error.code === "number" ? error.code : undefined;
}

/** The server took the call and refused the request itself: it has the call. */
function isAnswerToTheCall(error: unknown): boolean {
  const code = grpcCode(error);
  // INVALID_ARGUMENT (3), FAILED_PRECONDITION (9), OUT_OF_RANGE (11): the request's fault.
  return code === 3 || code === 9 || code === 11;
}

/** Each stream's new last revision, and the position of the request's commit. */
interface GroupAnswer {
  position: bigint;
  revisions: ReadonlyMap<string, bigint>;
}

/** Sends the appends as one request of `call`, the events in the order given. */
export async function sendGroup(client: KurrentDBClient, call: GroupedAppendCall, appends: readonly ValidAppend[]): Promise<GroupAnswer> {
  const recorded = (valid: ValidAppend) =>
    valid.events.map(({ id, type, data, metadata }) => jsonEvent({ id, type, data, metadata: { [METADATA_PROPERTY]: JSON.stringify(metadata) } }));
  let answer: AppendRecordsResult;
  if (call === "appendRecords") {
    const records = appends.flatMap((valid) => recorded(valid).map((record) => ({ streamName: valid.streamId, record })));
    const checks = appends.map((valid): ConsistencyCheck => ({ type: STREAM_STATE, streamName: valid.streamId, expectedState: toClientExpectedRevision(valid.expected) }));
    answer = await client.appendRecords(records, checks);
  } else {
    answer = await client.multiStreamAppend(
      appends.map((valid) => ({ streamName: valid.streamId, events: recorded(valid), expectedState: toClientExpectedRevision(valid.expected) })),
    );
  }
  return { position: answer.position, revisions: new Map(answer.responses.map(({ streamName, revision }) => [streamName, revision])) };
}

/**
 * The streams a refused grouped request names as not at their expected revision, with each one's
 * actual revision: every one from `appendRecords`, the first from `multiStreamAppend`. Empty for
 * any other error.
 */
export function conflictsOf(error: unknown): Map<string, bigint | "no_stream"> {
  const conflicts = new Map<string, bigint | "no_stream">();
  if (typeof error !== "object" || error === null || !("type" in error)) return conflicts;
  if (error.type === ErrorType.APPEND_CONSISTENCY_VIOLATION && "violations" in error && Array.isArray(error.violations)) {
    for (const violation of error.violations as { streamName: string; actualState: unknown }[]) {
      conflicts.set(violation.streamName, toActualRevision(violation.actualState));
    }
  } else if (error.type === ErrorType.WRONG_EXPECTED_VERSION && "streamName" in error && typeof error.streamName === "string" && "actualState" in error) {
    conflicts.set(error.streamName, toActualRevision(error.actualState));
  }
  return conflicts;
}

/**
 * Errors by which the server refused a whole request, writing nothing, for what one of its appends
 * is (too large, a deleted stream, not allowed), or for the size of the whole (over a message's
 * limit, see isMessageTooLarge): sent alone, each append meets its own answer.
 */
const REFUSALS_OF_ONE: ReadonlySet<string> = new Set([
  ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED,
  ErrorType.TRANSACTION_MAX_SIZE_EXCEEDED,
  ErrorType.APPEND_RECORD_SIZE_EXCEEDED,
  ErrorType.STREAM_DELETED,
  ErrorType.STREAM_TOMBSTONED,
  ErrorType.ACCESS_DENIED,
  ErrorType.INVALID_ARGUMENT,
]);

export function isRefusalOfOne(error: unknown): boolean {
  if (isMessageTooLarge(error)) return true;
  return typeof error === "object" && error !== null && "type" in error && typeof error.type === "string" && REFUSALS_OF_ONE.has(error.type);
}

/** What one item of a group comes to: its appends' results, or the error it alone failed with. */
export type ItemOutcome = AppendResult[] | Error;

/**
 * Appends the items (each one append, or the appends of one `appendLinked`, all or none) in as
 * few requests as their streams allow: an item with a stream already in the request goes in the
 * next one. A stream not at its expected revision fails its item alone with ConcurrencyError and
 * the rest are sent again at once; an item the server refused for what it is (see
 * `isRefusalOfOne`) is found by sending each alone. Any other failure leaves the outcome unknown,
 * and every item of the request reports it.
 */
export async function appendItems(
  items: readonly (readonly ValidAppend[])[],
  send: (appends: readonly ValidAppend[]) => Promise<GroupAnswer>,
  failureOf: (error: unknown, item: readonly ValidAppend[]) => Error,
): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = new Array(items.length);
  let waiting = items.map((item, index) => ({ item, index }));
  while (waiting.length > 0) {
    const streams = new Set<string>();
    const request: typeof waiting = [];
    const later: typeof waiting = [];
    for (const entry of waiting) {
      if (entry.item.some((valid) => streams.has(valid.streamId))) {
        later.push(entry);
        continue;
      }
      for (const valid of entry.item) streams.add(valid.streamId);
      request.push(entry);
    }
    await appendRequest(request, outcomes, send, failureOf);
    waiting = later;
  }
  return outcomes;
}

async function appendRequest(
  entries: { item: readonly ValidAppend[]; index: number }[],
  outcomes: ItemOutcome[],
  send: (appends: readonly ValidAppend[]) => Promise<GroupAnswer>,
  failureOf: (error: unknown, item: readonly ValidAppend[]) => Error,
): Promise<void> {
  let left = entries;
  while (left.length > 0) {
    try {
      const answer = await send(left.flatMap(({ item }) => item));
      for (const { item, index } of left) {
        outcomes[index] = item.map((valid) => ({ nextExpectedRevision: revisionOf(answer, valid.streamId), position: answer.position }));
      }
      return;
    } catch (error) {
      const conflicts = conflictsOf(error);
      const conflicting = left.filter(({ item }) => item.some((valid) => conflicts.has(valid.streamId)));
      if (conflicting.length > 0) {
        for (const { item, index } of conflicting) {
          const valid = item.find(({ streamId }) => conflicts.has(streamId))!;
          outcomes[index] = new ConcurrencyError(valid.streamId, valid.expected, conflicts.get(valid.streamId)!);
        }
        left = left.filter((entry) => !conflicting.includes(entry));
        continue;
      }
      if (left.length > 1 && isRefusalOfOne(error)) {
        for (const entry of left) await appendRequest([entry], outcomes, send, failureOf);
        return;
      }
      for (const { item, index } of left) outcomes[index] = failureOf(error, item);
      return;
    }
  }
}

function revisionOf(answer: GroupAnswer, streamId: string): bigint {
  const revision = answer.revisions.get(streamId);
  if (revision === undefined) throw new Error(`KurrentDB's answer to a grouped append names no revision for stream ${streamId}`);
  return revision;
}
