// Copied from the service's src/audit/verify-export.ts by `npm run client:generate`: do not edit.

import { chainHash } from "./chain-hash.js";

/**
 * Verifies an NDJSON export of the event log (`ledger export`, or the pages of `GET /v1/events`)
 * on its own: no database, no service, nothing of the operator's but the file. For every stream
 * it recomputes each event's hash (hex SHA-256 of the RFC 8785 canonical JSON of
 * `{ previous, streamId, revision, type, data, metadata }`, revision as a decimal string and
 * metadata without `chain`), checks that each event names the hash of the one before it, that
 * revisions run without a gap or a repeat from 0, and that the file is in log order.
 *
 * What it proves: every stream in the export is one unbroken chain from its first event to its
 * head. Only events before the first chained event of the export may lack a link (from before
 * hash chains): a link missing after it is a link removed. A rewrite that recomputes every hash after the change, or events added to or cut from the
 * end of a stream, keep a chain consistent: given heads recorded outside the database
 * (`recordedHeads`: an earlier export's, or the heads signed checkpoints cover), each must still be
 * in this one, at its revision with its hash.
 *
 * The export's own checkpoints (the events of the checkpoint stream) are handed back as lines for
 * `verifyCheckpoints`: their heads are then recorded heads for a second verification.
 *
 * The served `chain` field of each event (the service's own verdict) is ignored. This file imports
 * nothing but chain-hash.ts: the client package ships both as they are.
 */

/** The service's checkpoint stream and event type (src/audit/checkpoints.ts). */
const CHECKPOINT_STREAM = "audit-checkpoints";
const CHECKPOINT_RECORDED = "ChainCheckpointRecorded";

export type ExportProblemCode =
  /** A line that is not an event of the export's shape. */
  | "unreadable"
  /** An event whose log position is not after the line before it: lines were reordered. */
  | "out_of_log_order"
  /** Revisions of a stream that are not in the export: deleted events, or renumbered ones. */
  | "missing"
  /** A revision that comes after a later (or the same) revision of its stream: reordered or inserted. */
  | "out_of_order"
  /** Its content does not hash to its stored hash: edited. */
  | "altered"
  /** It does not name the hash of the event before it: that one was replaced, or it was inserted. */
  | "link_mismatch"
  /** No chain link after a chained event: of its stream, or anywhere before it in the export. */
  | "link_removed"
  | "link_malformed"
  /** A recorded head whose revision holds another hash here: the stream was rewritten since. */
  | "head_rewritten"
  /** A recorded head whose revision is not in this export: cut from the log since. */
  | "head_missing";

export interface ExportProblem {
  code: ExportProblemCode;
  /** 1-based line of the file; null for a recorded head not found in it. */
  line: number | null;
  streamId: string | null;
  revision: number | null;
  message: string;
  /** The hash the event should hold (or name), when it can be computed. */
  expected?: string | null;
  /** The hash it holds (or names). */
  found?: string | null;
}

export interface StreamProof {
  streamId: string;
  events: number;
  firstRevision: number;
  lastRevision: number;
  /** The hash the stream's first exported event names as its predecessor's: null when the export starts the stream. */
  linkedFrom: string | null;
  /** The hash of its last exported event: the head this export proves, to compare with a recorded one. */
  head: string | null;
  /** Events from before hash chains (before the export's first chained event): they prove nothing. */
  unchained: number;
  problems: ExportProblem[];
}

export interface ExportVerification {
  /** True when every line is an event and every stream is one unbroken chain. */
  ok: boolean;
  events: number;
  streams: StreamProof[];
  /** Problems of lines that belong to no stream (unreadable lines). */
  problems: ExportProblem[];
  /** The checkpoints the export carries, one JSON line each, for `verifyCheckpoints`. */
  checkpoints: string[];
}

/**
 * A stream's head as recorded outside the database: its `streamId`, `lastRevision` and `head`, as an
 * earlier verification proved it or as a checkpoint covers it. A stream may have several.
 */
export interface RecordedHead {
  streamId: string;
  lastRevision: number;
  head: string | null;
}

export interface VerifyExportOptions {
  /** Heads recorded earlier: the `streams` of an earlier export's verification, or the heads of verified checkpoints. */
  recordedHeads?: readonly RecordedHead[];
  /**
   * The export starts mid-log (`ledger export --after`): a stream may start past revision 0, and
   * its first event's link is taken as given (`linkedFrom`) instead of a missing start.
   */
  partial?: boolean;
}

interface ExportedEvent {
  streamId: string;
  position: bigint;
  revision: number;
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

interface ChainLink {
  previous: string | null;
  hash: string;
}

interface StreamState {
  proof: StreamProof;
  next: number;
  hash: string | null;
}

const sha256Hex = /^[0-9a-f]{64}$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function parseEvent(line: string): ExportedEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not JSON";
  }
  if (!isObject(value)) return "not a JSON object";
  const { streamId, position, revision, type, data, metadata } = value;
  if (typeof streamId !== "string" || typeof type !== "string") return "no streamId or type";
  if (typeof position !== "string" || !/^\d{1,20}$/.test(position)) return "no position";
  if (typeof revision !== "number" || !Number.isSafeInteger(revision) || revision < 0) return "no revision";
  if (!isObject(data) || !isObject(metadata)) return "no data or metadata object";
  return { streamId, position: BigInt(position), revision, type, data, metadata };
}

function chainLinkOf(metadata: Record<string, unknown>): ChainLink | "absent" | "malformed" {
  if (!("chain" in metadata)) return "absent";
  const link = metadata.chain;
  if (!isObject(link)) return "malformed";
  const { previous, hash } = link;
  const valid = typeof hash === "string" && sha256Hex.test(hash) && (previous === null || (typeof previous === "string" && sha256Hex.test(previous)));
  return valid ? { previous: previous as string | null, hash } : "malformed";
}

/** Checks one export, line by line, keeping a little state per stream. */
export function createExportVerifier(options: VerifyExportOptions = {}) {
  const streams = new Map<string, StreamState>();
  const problems: ExportProblem[] = [];
  // By stream, then by revision.
  const recorded = new Map<string, Map<number, RecordedHead>>();
  for (const head of options.recordedHeads ?? []) {
    const revisions = recorded.get(head.streamId) ?? new Map<number, RecordedHead>();
    recorded.set(head.streamId, revisions.set(head.lastRevision, head));
  }
  const recordedSeen = new Set<RecordedHead>();
  const checkpoints: string[] = [];
  let line = 0;
  let events = 0;
  /** A chained event was read: from then on, every event must carry a link. */
  let chained = false;
  let lastPosition: bigint | null = null;

  function add(text: string): void {
    line += 1;
    if (text.trim() === "") return;
    const event = parseEvent(text);
    if (typeof event === "string") {
      problems.push({ code: "unreadable", line, streamId: null, revision: null, message: `line ${line} is not an exported event: ${event}` });
      return;
    }
    events += 1;
    const state = stateOf(event);
    const report = (problem: Omit<ExportProblem, "line" | "streamId" | "revision">) =>
      state.proof.problems.push({ line, streamId: event.streamId, revision: event.revision, ...problem });

    if (lastPosition !== null && event.position <= lastPosition) {
      report({ code: "out_of_log_order", message: `position ${event.position} comes after position ${lastPosition}: lines were reordered` });
    }
    if (lastPosition === null || event.position > lastPosition) lastPosition = event.position;

    const first = state.proof.events === 0;
    const startsMidStream = first && options.partial === true && event.revision > 0;
    const followsOn = event.revision === state.next;
    if (event.revision > state.next && !startsMidStream) {
      const to = event.revision - 1;
      report({
        code: "missing",
        message: state.next === to ? `revision ${to} is not in the export` : `revisions ${state.next}..${to} are not in the export`,
      });
    }
    if (event.revision < state.next) {
      report({ code: "out_of_order", message: `revision ${event.revision} comes after revision ${state.next - 1}: reordered, repeated or inserted` });
    }

    const link = chainLinkOf(event.metadata);
    const head = recorded.get(event.streamId)?.get(event.revision);
    if (head) {
      recordedSeen.add(head);
      const found = typeof link === "object" ? link.hash : null;
      if (found !== head.head) {
        report({ code: "head_rewritten", message: `the head recorded at revision ${head.lastRevision} holds another hash here`, expected: head.head, found });
      }
    }
    if (link === "absent") {
      if (chained) report({ code: "link_removed", message: "it carries no chain link though events before it in the log do" });
      else state.proof.unchained += 1;
    } else if (link === "malformed") {
      report({ code: "link_malformed", message: "its chain link is not two hex SHA-256 hashes" });
    } else {
      const computed = chainHash(link.previous, event);
      if (computed !== link.hash) {
        report({ code: "altered", message: "its content does not hash to its stored hash: edited", expected: computed, found: link.hash });
      }
      if (startsMidStream) state.proof.linkedFrom = link.previous;
      else if (followsOn && link.previous !== state.hash) {
        report({ code: "link_mismatch", message: "it does not name the hash of the event before it", expected: state.hash, found: link.previous });
      }
    }

    state.proof.events += 1;
    state.proof.firstRevision = first ? event.revision : Math.min(state.proof.firstRevision, event.revision);
    state.proof.lastRevision = first ? event.revision : Math.max(state.proof.lastRevision, event.revision);
    // An event that came too late (reported above) leaves the chain at the latest revision.
    if (event.revision >= state.next || first) {
      state.next = event.revision + 1;
      state.hash = typeof link === "object" ? link.hash : null;
      state.proof.head = state.hash;
    }
    chained ||= link !== "absent";
    if (event.streamId === CHECKPOINT_STREAM && event.type === CHECKPOINT_RECORDED) checkpoints.push(JSON.stringify(event.data));
  }

  function stateOf(event: ExportedEvent): StreamState {
    let state = streams.get(event.streamId);
    if (!state) {
      const proof = { streamId: event.streamId, events: 0, firstRevision: 0, lastRevision: 0, linkedFrom: null, head: null, unchained: 0, problems: [] };
      streams.set(event.streamId, (state = { proof, next: 0, hash: null }));
    }
    return state;
  }

  function finish(): ExportVerification {
    for (const head of [...recorded.values()].flatMap((revisions) => [...revisions.values()])) {
      if (recordedSeen.has(head)) continue;
      const state = streams.get(head.streamId);
      // A partial export may start after the recorded head: it has nothing to say about it.
      if (options.partial && (!state || state.proof.firstRevision > head.lastRevision)) continue;
      const problem = {
        code: "head_missing" as const,
        line: null,
        streamId: head.streamId,
        revision: head.lastRevision,
        message: `the head recorded at revision ${head.lastRevision} is not in the export`,
        expected: head.head,
        found: null,
      };
      if (state) state.proof.problems.push(problem);
      else problems.push(problem);
    }
    const proofs = [...streams.values()].map((state) => state.proof);
    return { ok: problems.length === 0 && proofs.every((proof) => proof.problems.length === 0), events, streams: proofs, problems, checkpoints };
  }

  return { add, finish };
}

/**
 * Verifies the lines of an export: `verifyExport(readline.createInterface({ input: createReadStream(file) }))`.
 */
export async function verifyExport(lines: Iterable<string> | AsyncIterable<string>, options: VerifyExportOptions = {}): Promise<ExportVerification> {
  const verifier = createExportVerifier(options);
  for await (const line of lines) verifier.add(line);
  return verifier.finish();
}
