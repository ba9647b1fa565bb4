// Copied from the service's src/audit/checkpoint-proof.ts by `npm run client:generate`: do not edit.

import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * What a checkpoint proves and how to check it, offline: the service's Merkle root over the chain
 * heads it covers, signed with its Ed25519 key. This file imports only Node and canonicalize.
 *
 * - Leaf: SHA-256 of 0x00 and the canonical JSON (RFC 8785) of `{ streamId, revision, hash }`,
 *   revision a decimal string; leaves in the order of their streamId (UTF-16 code units, as
 *   JavaScript sorts strings).
 * - Node: SHA-256 of 0x01 and its two children; a level of n > 1 leaves splits at the largest
 *   power of two below n (RFC 6962's Merkle tree hash). No heads: SHA-256 of nothing.
 * - Signature: Ed25519 over the canonical JSON of `{ sequence, keyId, recordedAt, root }`.
 * - Key id: the first 16 hex digits of SHA-256 of the public key's DER (SPKI).
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
  /** Base64 Ed25519 signature. */
  signature: string;
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
  | "checkpoint_missing";

export interface CheckpointProblem {
  code: CheckpointProblemCode;
  /** 1-based line of the checkpoints file. */
  line: number;
  sequence: number | null;
  message: string;
}

export interface CheckpointVerification {
  ok: boolean;
  checkpoints: number;
  /** Every head of every checkpoint whose signature and root verify, for an export to hold. */
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

/** The bytes a checkpoint's signature covers. */
export function signedContent(checkpoint: Pick<CheckpointRecord, "sequence" | "keyId" | "recordedAt" | "root">): Buffer {
  const { sequence, keyId, recordedAt, root } = checkpoint;
  return Buffer.from(canonicalize({ sequence, keyId, recordedAt, root }) ?? "", "utf8");
}

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

function parseCheckpoint(line: string): CheckpointRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { sequence, keyId, recordedAt, root, heads, signature } = value;
  if (!isCount(sequence) || typeof keyId !== "string" || typeof recordedAt !== "string" || typeof root !== "string") return undefined;
  if (typeof signature !== "string" || !Array.isArray(heads) || !heads.every(isHead)) return undefined;
  return { sequence, keyId, recordedAt, root, heads, signature };
}

/** Checks each checkpoint's signature and root; the heads of those that verify are what an export must hold. */
export async function verifyCheckpoints(
  lines: Iterable<string> | AsyncIterable<string>,
  keys: ReadonlyMap<string, KeyObject>,
): Promise<CheckpointVerification> {
  const result: CheckpointVerification = { ok: true, checkpoints: 0, heads: [], problems: [] };
  let line = 0;
  let lastSequence: number | undefined;
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
    if (lastSequence !== undefined && checkpoint.sequence !== lastSequence + 1) {
      report("checkpoint_missing", `checkpoint ${checkpoint.sequence} follows checkpoint ${lastSequence}`);
    }
    lastSequence = checkpoint.sequence;
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
    result.heads.push(...checkpoint.heads.map((head) => ({ ...head, sequence: checkpoint.sequence })));
  }
  result.ok = result.problems.length === 0;
  return result;
}
