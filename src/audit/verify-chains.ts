import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { chainHash } from "../eventstore/chain-hash.ts";
import { readChainLink } from "../eventstore/hash-chain.ts";
import type { Checkpoint, EventStore, RecordedEvent } from "../eventstore/port.ts";
import { findHeadMismatches } from "../eventstore/postgres/stream-heads.ts";
import type { ChainHead } from "./checkpoint-proof.ts";

export type ChainFinding =
  /** The event does not match its own hash: its data, metadata, type, revision or link was edited. */
  | { kind: "altered"; revision: bigint }
  /** Revisions never found in the log: deleted events. */
  | { kind: "missing"; from: bigint; to: bigint }
  /** Read after a later revision of its stream: the events were renumbered (reordered). */
  | { kind: "out_of_order"; revision: bigint; after: bigint }
  /** Intact, but not linked to the event stored before it: that one was replaced by another. */
  | { kind: "broken_link"; revision: bigint }
  /** No chain link after a chained event (of its stream, or anywhere before it in the log): its link was removed. */
  | { kind: "unchained"; revision: bigint }
  /** The revision a signed checkpoint covers holds another hash: rewritten, every hash recomputed. */
  | { kind: "head_rewritten"; revision: bigint; sequence: number }
  /** The revision a signed checkpoint covers is not in the log: cut from it. */
  | { kind: "head_missing"; revision: bigint; sequence: number }
  /** PostgreSQL only: the stream's recorded head revision is not its last stored event. */
  | { kind: "head_mismatch"; head: bigint | null; lastStored: bigint | null };

export interface StreamFindings {
  streamId: string;
  /** The first findings, in the order found. */
  findings: ChainFinding[];
  /** How many more were found but not kept. */
  omitted: number;
}

export interface ChainReport {
  events: number;
  streams: number;
  /** Streams whose stored events were changed, deleted or reordered, by stream id. */
  tampered: StreamFindings[];
  /** Events from before hash chains (before the log's first chained event): they cannot be checked. */
  unchained: { events: number; streams: number; sample: string[] };
}

export interface VerifyChainsOptions {
  store: EventStore;
  /** The database the events live in, when they are in PostgreSQL: stream heads are checked too. */
  eventsDb?: Kysely<Database>;
  batchSize?: number;
  onProgress?: (progress: { events: number; position: bigint | null }) => void;
  /** The heads verified checkpoints cover: the newest of each stream must be in the log as signed (its chain proves the rest). */
  checkpointedHeads?: ReadonlyArray<ChainHead & { sequence: number }>;
}

const MAX_FINDINGS_PER_STREAM = 20;
const UNCHAINED_SAMPLE = 10;

interface Gap {
  from: bigint;
  to: bigint;
}

/** What the scan keeps per stream: the revision it expects next and the hash to link to. */
interface StreamState {
  next: bigint;
  hash: string | null;
  /** Events read before the log's first chained one. */
  unchained: number;
  /** Revisions skipped so far; a late one (out of order) fills its gap. */
  gaps: Gap[];
  findings: StreamFindings | undefined;
}

/**
 * Recomputes every stream's hash chain, reading the whole log once in global order and keeping
 * only a little state per stream, and names each stream whose stored events were changed,
 * deleted or reordered. Cannot see events deleted from the end of a stream unless `eventsDb`
 * gives the recorded stream heads to compare with.
 */
export async function verifyChains(options: VerifyChainsOptions): Promise<ChainReport> {
  const { store, eventsDb, batchSize = 2_000, onProgress } = options;
  const scan = new ChainScan(options.checkpointedHeads ?? []);
  let checkpoint: Checkpoint | null = null;
  for (;;) {
    const batch = await store.readAll({ after: checkpoint, batchSize });
    if (batch.checkpoint === checkpoint) break;
    scan.check(batch.events);
    checkpoint = batch.checkpoint;
    onProgress?.({ events: scan.events, position: batch.events.at(-1)?.position ?? null });
  }
  return scan.report(eventsDb);
}

/** The hash chains' check, fed the whole log in global order, batch by batch (verifyChains, or a pass that also replays the log). */
export class ChainScan {
  readonly #streams = new Map<string, StreamState>();
  readonly #checkpointed: Map<string, ChainHead & { sequence: number }>;
  #events = 0;
  #chained = false;

  constructor(checkpointedHeads: ReadonlyArray<ChainHead & { sequence: number }>) {
    this.#checkpointed = newestHeads(checkpointedHeads);
  }

  get events(): number {
    return this.#events;
  }

  check(events: readonly RecordedEvent[]): void {
    for (const event of events) {
      const state = this.#stateOf(event.streamId);
      this.#chained = check(state, event, this.#chained);
      const head = this.#checkpointed.get(event.streamId);
      if (head?.revision === Number(event.revision)) {
        this.#checkpointed.delete(event.streamId);
        if (state.hash !== head.hash) note(state, event.streamId, { kind: "head_rewritten", revision: event.revision, sequence: head.sequence });
      }
    }
    this.#events += events.length;
  }

  /** What the events checked so far come to; `eventsDb` as in verifyChains. */
  async report(eventsDb: Kysely<Database> | undefined): Promise<ChainReport> {
    for (const head of this.#checkpointed.values()) {
      note(this.#stateOf(head.streamId), head.streamId, { kind: "head_missing", revision: BigInt(head.revision), sequence: head.sequence });
    }
    const tampered = new Map<string, StreamFindings>();
    const unchained = { events: 0, streams: 0, sample: [] as string[] };
    for (const [streamId, state] of this.#streams) {
      for (const gap of state.gaps) note(state, streamId, { kind: "missing", from: gap.from, to: gap.to });
      if (state.findings) tampered.set(streamId, state.findings);
      if (state.unchained > 0) {
        unchained.events += state.unchained;
        unchained.streams += 1;
        if (unchained.sample.length < UNCHAINED_SAMPLE) unchained.sample.push(streamId);
      }
    }
    for (const { streamId, head, lastStored } of eventsDb ? await findHeadMismatches(eventsDb) : []) {
      const findings = tampered.get(streamId) ?? { streamId, findings: [], omitted: 0 };
      findings.findings.push({ kind: "head_mismatch", head, lastStored });
      tampered.set(streamId, findings);
    }
    return {
      events: this.#events,
      streams: this.#streams.size,
      tampered: [...tampered.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : 1)),
      unchained,
    };
  }

  #stateOf(streamId: string): StreamState {
    let state = this.#streams.get(streamId);
    if (!state) this.#streams.set(streamId, (state = { next: 0n, hash: null, unchained: 0, gaps: [], findings: undefined }));
    return state;
  }
}

/** Each stream's newest checkpointed head, as the last checkpoint to cover it signed it. */
function newestHeads(heads: ReadonlyArray<ChainHead & { sequence: number }>): Map<string, ChainHead & { sequence: number }> {
  const newest = new Map<string, ChainHead & { sequence: number }>();
  for (const head of heads) {
    if ((newest.get(head.streamId)?.revision ?? -1) <= head.revision) newest.set(head.streamId, head);
  }
  return newest;
}

/** Checks one event; returns whether a chained event has been read in the log so far. */
function check(state: StreamState, event: RecordedEvent, chained: boolean): boolean {
  const inOrder = event.revision === state.next;
  if (event.revision > state.next) state.gaps.push({ from: state.next, to: event.revision - 1n });
  if (event.revision < state.next) {
    state.gaps = fillGap(state.gaps, event.revision);
    note(state, event.streamId, { kind: "out_of_order", revision: event.revision, after: state.next - 1n });
  }
  const link = readChainLink(event.metadata);
  if (link === "absent") {
    if (chained) note(state, event.streamId, { kind: "unchained", revision: event.revision });
    else state.unchained += 1;
  } else if (link === "malformed" || chainHash(link.previous, event) !== link.hash) {
    note(state, event.streamId, { kind: "altered", revision: event.revision });
  } else if (inOrder && link.previous !== state.hash) {
    // Out of order or after a gap, the broken link is already explained.
    note(state, event.streamId, { kind: "broken_link", revision: event.revision });
  }
  if (event.revision >= state.next) state.next = event.revision + 1n;
  state.hash = typeof link === "object" ? link.hash : null;
  return chained || link !== "absent";
}

function fillGap(gaps: Gap[], revision: bigint): Gap[] {
  return gaps.flatMap((gap) => {
    if (revision < gap.from || revision > gap.to) return [gap];
    const parts = [{ from: gap.from, to: revision - 1n }, { from: revision + 1n, to: gap.to }];
    return parts.filter((part) => part.from <= part.to);
  });
}

function note(state: StreamState, streamId: string, finding: ChainFinding): void {
  state.findings ??= { streamId, findings: [], omitted: 0 };
  if (state.findings.findings.length < MAX_FINDINGS_PER_STREAM) state.findings.findings.push(finding);
  else state.findings.omitted += 1;
}
