import { sign } from "node:crypto";
import { z } from "zod";
import { ConcurrencyError } from "../eventstore/errors.ts";
import { chainEvents, readChainLink, type StreamTip } from "../eventstore/hash-chain.ts";
import type { Checkpoint, EventStore, RecordedEvent } from "../eventstore/port.ts";
import type { KeyObject } from "node:crypto";
import type { ChainHead, CheckpointRecord, CheckpointVerification, SignedCheckpoint, TrustedCheckpoint } from "./checkpoint-proof.ts";
import { checkpointDigest, merkleRoot, signedContent, verifyCheckpoints } from "./checkpoint-proof.ts";
import type { CheckpointSigner } from "./checkpoint-keys.ts";

/**
 * Checkpoints: signed Merkle roots over the chain heads changed since the one before, recorded in
 * a stream of their own (`ChainCheckpointRecorded`, its revision the checkpoint's `sequence`),
 * each signing the digest of the one before (`previous`). Each records `through`, the log cursor
 * it read to, where the next one starts reading.
 */
export const CHECKPOINT_STREAM = "audit-checkpoints";
const CHECKPOINT_RECORDED = "ChainCheckpointRecorded";

/**
 * Heads per checkpoint, about: reading stops at the end of the batch that reaches it, and the rest
 * goes into the next checkpoint. Bounds the event well under EventStoreDB's 1 MiB append.
 */
const MAX_HEADS = 2_000;
const READ_BATCH = 500;

const checkpointDataSchema = z.object({
  sequence: z.number().int().min(0),
  keyId: z.string(),
  recordedAt: z.iso.datetime(),
  root: z.string(),
  heads: z.array(z.object({ streamId: z.string(), revision: z.number().int().min(0), hash: z.string() })),
  // Absent on checkpoints recorded before checkpoint chains.
  previous: z.string().regex(/^[0-9a-f]{64}$/).nullable().optional(),
  signature: z.string(),
  through: z.string(),
});
export type CheckpointData = CheckpointRecord & { through: Checkpoint };

/** A recorded checkpoint event's data, checked. */
export const checkpointOf = (event: RecordedEvent): CheckpointData => checkpointDataSchema.parse(event.data);

export interface RecordCheckpointsOptions {
  store: EventStore;
  signer: CheckpointSigner;
  now: () => Date;
  /** No checkpoint until the last one is this old. */
  intervalMs: number;
}

/**
 * Records the checkpoints due: none while the last is younger than the interval, or when no chain
 * head changed; otherwise as many as the changed heads need. Each append expects the revision the
 * last checkpoint had, so of instances that try at once one records and the others record
 * nothing. Returns how many this call recorded.
 */
export async function recordCheckpoints({ store, signer, now, intervalMs }: RecordCheckpointsOptions): Promise<number> {
  const [lastEvent] = await store.readStream(CHECKPOINT_STREAM, { direction: "backwards", maxCount: 1 });
  const last = lastEvent && checkpointOf(lastEvent);
  if (last && now().getTime() - Date.parse(last.recordedAt) < intervalMs) return 0;
  let tip: StreamTip | undefined = lastEvent;
  let after: Checkpoint | null = last?.through ?? null;
  let previous: string | null = null;
  let recorded = 0;
  for (;;) {
    const changed = await changedHeads(store, after);
    if (changed.heads.length === 0 || changed.through === null) return recorded;
    if (recorded === 0 && last) previous = await digestOf(store, last);
    const sequence = tip ? Number(tip.revision) + 1 : 0;
    const content = { sequence, keyId: signer.keyId, recordedAt: now().toISOString(), root: merkleRoot(changed.heads), previous };
    const data = { ...content, heads: changed.heads, signature: signCheckpoint(content, signer), through: changed.through };
    const [event] = chainEvents(CHECKPOINT_STREAM, tip, [{ type: CHECKPOINT_RECORDED, data }]);
    try {
      await store.append(CHECKPOINT_STREAM, [event!], tip?.revision ?? "no_stream");
    } catch (error) {
      if (error instanceof ConcurrencyError) return recorded;
      throw error;
    }
    recorded += 1;
    tip = { revision: BigInt(sequence), metadata: event!.metadata ?? {} };
    after = changed.through;
    previous = checkpointDigest(content, previous);
    if (!changed.more) return recorded;
  }
}

/** The base64 Ed25519 signature of a checkpoint's content. */
export const signCheckpoint = (content: SignedCheckpoint, signer: CheckpointSigner): string =>
  sign(null, signedContent(content), signer.privateKey).toString("base64");

/**
 * The digest the next checkpoint signs as its `previous`. The last checkpoint of a release before
 * checkpoint chains has no link: its digest covers every checkpoint before it, read once.
 */
async function digestOf(store: EventStore, last: CheckpointData): Promise<string> {
  if (last.previous !== undefined) return checkpointDigest(last, last.previous);
  let previous: string | null = null;
  for await (const checkpoint of readCheckpoints(store)) {
    previous = checkpointDigest(checkpoint, checkpoint.previous === undefined ? previous : checkpoint.previous);
  }
  return previous!;
}

/** The last chained event of each stream changed after `after`, but the checkpoints' own. */
async function changedHeads(store: EventStore, after: Checkpoint | null): Promise<{ heads: ChainHead[]; through: Checkpoint | null; more: boolean }> {
  const heads = new Map<string, ChainHead>();
  const found = (more: boolean) => ({ heads: [...heads.values()].sort((a, b) => (a.streamId < b.streamId ? -1 : 1)), through, more });
  let through = after;
  for (;;) {
    const { events, checkpoint } = await store.readAll({ after: through, batchSize: READ_BATCH });
    if (events.length === 0) return found(false);
    for (const event of events) {
      const link = readChainLink(event.metadata);
      if (event.streamId === CHECKPOINT_STREAM || typeof link !== "object") continue;
      heads.set(event.streamId, { streamId: event.streamId, revision: Number(event.revision), hash: link.hash });
    }
    through = checkpoint;
    if (heads.size >= MAX_HEADS) return found(true);
  }
}

/** Every recorded checkpoint, oldest first. */
async function* readCheckpoints(store: EventStore): AsyncIterable<CheckpointData> {
  const page = 100;
  for (let from = 0n; ; from += BigInt(page)) {
    const events = await store.readStream(CHECKPOINT_STREAM, { from, maxCount: page });
    for (const event of events) yield checkpointOf(event);
    if (events.length < page) return;
  }
}

/** The checkpoints recorded at or after `since` (all without), oldest first, one JSON line each. */
export async function* checkpointLines(store: EventStore, since: Date | undefined): AsyncIterable<string> {
  for await (const checkpoint of readCheckpoints(store)) {
    if (since === undefined || Date.parse(checkpoint.recordedAt) >= since.getTime()) yield `${JSON.stringify(checkpoint)}\n`;
  }
}

/**
 * The recorded checkpoints, checked as an auditor checks a file of them: one chain from sequence 0
 * (or from the trusted checkpoint), each signature verifying with `keys`.
 */
export const verifyRecordedCheckpoints = (store: EventStore, keys: ReadonlyMap<string, KeyObject>, trusted?: TrustedCheckpoint): Promise<CheckpointVerification> =>
  verifyCheckpoints(checkpointLines(store, undefined), keys, { trusted });
