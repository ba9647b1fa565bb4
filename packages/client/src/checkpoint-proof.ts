// Copied from the service's src/audit/checkpoint-proof.ts by `npm run client:generate`: do not edit.

import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * What a checkpoint proves and how to check it, offline: the service's Merkle root over the chain
 * heads it covers, signed with its Ed25519 key, and linked to the checkpoint before it. This file
 * imports only Node and canonicalize.
 *
 * - Leaf: SHA-256 of 0x00 and the canonical JSON (RFC 8785) of `{ streamId, revision, hash }`,
 *   revision a decimal string; leaves in the order of their streamId (UTF-16 code units, as
 *   JavaScript sorts strings).
 * - Node: SHA-256 of 0x01 and its two children; a level of n > 1 leaves splits at the largest
 *   power of two below n (RFC 6962's Merkle tree hash). No heads: SHA-256 of nothing.
 * - Signature: Ed25519 over the canonical JSON of `{ sequence, keyId, recordedAt, root, previous }`.
 * - Digest: hex SHA-256 of that same JSON. `previous` is the digest of the checkpoint before
 *   (null at sequence 0), so each checkpoint signs the whole chain before it.
 * - Key id: the first 16 hex digits of SHA-256 of the public key's DER (SPKI).
 *
 * Checkpoints recorded before checkpoint chains have no `previous` and signed the JSON without it.
 * Their digest still includes the link, taken as the digest of the checkpoint before them: the
 * first chained checkpoint after them signs it, and so commits to each of them in order.
 */

/** A stream's last event as a checkpoint covers it. */
export type ChainHead = {
  streamId: string;
  revision: number;
  hash: string;
};

/** A checkpoint as recorded in the log and as `ledger checkpoints export` writes it, one per line. */
export interface CheckpointRecord {
  /** Its revision in the checkpoint stream: 0, 1, 2, … with no gap. */
  sequence: number;
  keyId: string;
  recordedAt: string;
  /** Hex Merkle root of `heads`. */
  root: string;
  heads: ChainHead[];
  /** The digest of the checkpoint before it; null at sequence 0; absent when recorded before checkpoint chains. */
  previous?: string | null;
  /** Base64 Ed25519 signature. */
  signature: string;
}

/** What a checkpoint signs and its digest covers. */
export type SignedCheckpoint = Pick<CheckpointRecord, "sequence" | "keyId" | "recordedAt" | "root" | "previous">;

/** A checkpoint the auditor holds (as an earlier verification named it): the chain may start there. */
export interface TrustedCheckpoint {
  sequence: number;
  /** Hex SHA-256, as `checkpointDigest` computes it. */
  digest: string;
}

export type CheckpointProblemCode =
  /** A line that is not a checkpoint. */
  | "unreadable"
  /** Signed by a key the key list does not hold. */
  | "unknown_key"
  /** The signature does not verify with its key: the checkpoint was changed, or forged. */
  | "bad_signature"
  /** Its heads do not hash to its root: heads were changed, added or removed. */
  | "root_mismatch"
  /** Sequences skipped: checkpoints were left out of the file. */
  | "checkpoint_missing"
  /** A sequence at or before the one before it: a checkpoint repeated or reordered. */
  | "out_of_sequence"
  /** The first checkpoint is neither sequence 0 nor the trusted one (or the one right after it): the file starts mid-chain. */
  | "chain_start"
  /** It does not sign the digest of the checkpoint before it: forked, replayed or forged. */
  | "link_mismatch"
  /** No link to the checkpoint before it, after chained checkpoints. */
  | "link_missing"
  /** Checkpoints from before checkpoint chains that no chained checkpoint after them signs. */
  | "uncommitted"
  /** The trusted checkpoint's sequence holds another checkpoint here. */
  | "trusted_mismatch"
  /** The file ends before the trusted checkpoint: cut from its end, or an older copy. */
  | "trusted_missing";

export interface CheckpointProblem {
  code: CheckpointProblemCode;
  /** 1-based line of the checkpoints file; null for a problem of the whole file. */
  line: number | null;
  sequence: number | null;
  message: string;
}

export interface VerifyCheckpointsOptions {
  /** A checkpoint the auditor already holds: the chain may start at it (or right after it) instead of at sequence 0. */
  trusted?: TrustedCheckpoint;
}

export interface CheckpointVerification {
  ok: boolean;
  checkpoints: number;
  /** Where the chain was proved from: sequence 0, or the trusted checkpoint; null when it was not. */
  chainFrom: { sequence: number; trusted: boolean } | null;
  /** The last checkpoint and its digest: what to name trusted next time. */
  last: TrustedCheckpoint | null;
  /** Every head of every checkpoint whose signature and root verify, for an export to hold; proof only when `ok`. */
  heads: Array<ChainHead & { sequence: number }>;
  problems: CheckpointProblem[];
}

const sha256 = (...parts: Array<Buffer | string>) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const leafOf = (head: ChainHead) =>
  sha256(Buffer.of(0), canonicalize({ streamId: head.streamId, revision: String(head.revision), hash: head.hash }) ?? "");

function treeHash(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  let split = 1;
  while (split * 2 < leaves.length) split *= 2;
  return sha256(Buffer.of(1), treeHash(leaves.slice(0, split)), treeHash(leaves.slice(split)));
}

export function merkleRoot(heads: readonly ChainHead[]): string {
  const sorted = [...heads].sort((a, b) => (a.streamId < b.streamId ? -1 : a.streamId > b.streamId ? 1 : 0));
  return treeHash(sorted.map(leafOf)).toString("hex");
}

/** The bytes a checkpoint's signature covers: without `previous` for one recorded before checkpoint chains. */
export function signedContent(checkpoint: SignedCheckpoint): Buffer {
  const { sequence, keyId, recordedAt, root, previous } = checkpoint;
  const content = previous === undefined ? { sequence, keyId, recordedAt, root } : { sequence, keyId, recordedAt, root, previous };
  return Buffer.from(canonicalize(content) ?? "", "utf8");
}

/**
 * What the checkpoint after this one signs as its `previous`. `previous` is this one's link: its
 * own, or for one from before checkpoint chains the digest of the checkpoint before it.
 */
export const checkpointDigest = (checkpoint: SignedCheckpoint, previous: string | null): string =>
  sha256(signedContent({ ...checkpoint, previous })).toString("hex");

export const keyIdOf = (publicKey: KeyObject): string =>
  createHash("sha256").update(publicKey.export({ type: "spki", format: "der" })).digest("hex").slice(0, 16);

/**
 * The verifying keys, by the id computed from each (never the one a file claims): a PEM public
 * key, or the JSON of `GET /audit/checkpoint-keys` (`{ keys: [{ publicKey }] }`).
 */
export function parseCheckpointKeys(text: string): Map<string, KeyObject> {
  const pems = text.trimStart().startsWith("-----BEGIN") ? [text] : keyListOf(JSON.parse(text));
  const keys = new Map<string, KeyObject>();
  for (const pem of pems) {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== "ed25519") throw new Error(`a checkpoint key must be Ed25519, not ${key.asymmetricKeyType}`);
    keys.set(keyIdOf(key), key);
  }
  if (keys.size === 0) throw new Error("no checkpoint key given");
  return keys;
}

function keyListOf(value: unknown): string[] {
  const keys = isObject(value) && Array.isArray(value.keys) ? value.keys : [];
  return keys.map((key: unknown) => {
    if (!isObject(key) || typeof key.publicKey !== "string") throw new Error("a key of the key list has no PEM publicKey");
    return key.publicKey;
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

const isHead = (value: unknown): value is ChainHead =>
  isObject(value) && typeof value.streamId === "string" && isCount(value.revision) && typeof value.hash === "string";

const isDigest = (value: unknown): value is string => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);

function parseCheckpoint(line: string): CheckpointRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { sequence, keyId, recordedAt, root, heads, previous, signature } = value;
  if (!isCount(sequence) || typeof keyId !== "string" || typeof recordedAt !== "string" || typeof root !== "string") return undefined;
  if (typeof signature !== "string" || !Array.isArray(heads) || !heads.every(isHead)) return undefined;
  if (!("previous" in value)) return { sequence, keyId, recordedAt, root, heads, signature };
  if (previous !== null && !isDigest(previous)) return undefined;
  return { sequence, keyId, recordedAt, root, heads, previous, signature };
}

/**
 * Checks each checkpoint's signature and root, and that they form one chain: from sequence 0, or
 * from the trusted checkpoint (the file may start at it, or right after it, linked to its digest),
 * each signing the digest of the one before. The heads of those that verify are what an export
 * must hold.
 */
export async function verifyCheckpoints(
  lines: Iterable<string> | AsyncIterable<string>,
  keys: ReadonlyMap<string, KeyObject>,
  { trusted }: VerifyCheckpointsOptions = {},
): Promise<CheckpointVerification> {
  const result: CheckpointVerification = { ok: true, checkpoints: 0, chainFrom: null, last: null, heads: [], problems: [] };
  let line = 0;
  let chained = false;
  let trustedSeen = false;
  /** Checkpoints from before checkpoint chains read since the last chained one: the next chained one commits to them. */
  let uncommitted: Array<{ line: number; sequence: number }> = [];
  for await (const text of lines) {
    line += 1;
    if (text.trim() === "") continue;
    const checkpoint = parseCheckpoint(text);
    const report = (code: CheckpointProblemCode, message: string) =>
      result.problems.push({ code, line, sequence: checkpoint?.sequence ?? null, message });
    if (!checkpoint) {
      report("unreadable", `line ${line} is not a checkpoint`);
      continue;
    }
    result.checkpoints += 1;
    const { sequence, previous } = checkpoint;
    const before = result.last;
    if (before === null) {
      const start = chainStart(checkpoint, trusted);
      if (typeof start === "string") report("chain_start", start);
      else result.chainFrom = start;
    } else if (sequence > before.sequence + 1) {
      report("checkpoint_missing", `checkpoint ${sequence} follows checkpoint ${before.sequence}`);
    } else if (sequence <= before.sequence) {
      report("out_of_sequence", `checkpoint ${sequence} follows checkpoint ${before.sequence}: repeated or reordered`);
    } else if (previous === undefined && chained) {
      report("link_missing", "it names no checkpoint before it, though chained checkpoints precede it");
    } else if (previous !== undefined && previous !== before.digest) {
      report("link_mismatch", `it does not sign the digest of checkpoint ${before.sequence}`);
    }
    const digest = checkpointDigest(checkpoint, previous === undefined ? (before?.digest ?? null) : previous);
    result.last = { sequence, digest };
    if (previous !== undefined) {
      chained = true;
      uncommitted = [];
    } else if (!chained) uncommitted.push({ line, sequence });
    if (trusted?.sequence === sequence) {
      trustedSeen = true;
      if (trusted.digest !== digest) report("trusted_mismatch", `its digest is ${digest}, not the trusted ${trusted.digest}`);
    }

    const key = keys.get(checkpoint.keyId);
    if (!key) {
      report("unknown_key", `signed by key ${checkpoint.keyId}, which the key list does not hold`);
      continue;
    }
    if (!verify(null, signedContent(checkpoint), key, Buffer.from(checkpoint.signature, "base64"))) {
      report("bad_signature", `its signature does not verify with key ${checkpoint.keyId}`);
      continue;
    }
    if (merkleRoot(checkpoint.heads) !== checkpoint.root) {
      report("root_mismatch", "its heads do not hash to its signed root");
      continue;
    }
    result.heads.push(...checkpoint.heads.map((head) => ({ ...head, sequence })));
  }
  const [firstUncommitted] = uncommitted;
  if (firstUncommitted) {
    result.problems.push({
      code: "uncommitted",
      line: firstUncommitted.line,
      sequence: firstUncommitted.sequence,
      message:
        `checkpoints ${firstUncommitted.sequence}..${uncommitted.at(-1)!.sequence} were recorded before checkpoint chains, ` +
        "and no chained checkpoint after them signs their digest",
    });
  }
  if (trusted && !trustedSeen && result.chainFrom?.trusted !== true) {
    result.problems.push({
      code: "trusted_missing",
      line: null,
      sequence: trusted.sequence,
      message: `the trusted checkpoint ${trusted.sequence} is not in the file: it ends ${result.last ? `at checkpoint ${result.last.sequence}` : "before any"}`,
    });
  }
  result.ok = result.problems.length === 0;
  if (!result.ok) result.chainFrom = null;
  return result;
}

/** Where a file's first checkpoint starts the chain, or why it cannot. */
function chainStart(first: CheckpointRecord, trusted: TrustedCheckpoint | undefined): CheckpointVerification["chainFrom"] | string {
  const { sequence, previous } = first;
  if (sequence === 0) return previous === undefined || previous === null ? { sequence, trusted: false } : "checkpoint 0 names a checkpoint before it";
  if (trusted?.sequence === sequence) {
    // Its digest is then computed from its own link: one from before checkpoint chains has none.
    return previous === undefined ? `checkpoint ${sequence} was recorded before checkpoint chains: prove the chain from sequence 0` : { sequence, trusted: true };
  }
  if (trusted?.sequence === sequence - 1 && previous === trusted.digest) return { sequence: trusted.sequence, trusted: true };
  const trust = trusted ? `, from the trusted checkpoint ${trusted.sequence} or right after it` : ", or from a checkpoint named trusted";
  return `the file starts at checkpoint ${sequence}: a chain is proved from sequence 0${trust}`;
}
