import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { ConcurrencyError } from "../eventstore/errors.ts";
import { chainEvents } from "../eventstore/hash-chain.ts";
import type { EventStore } from "../eventstore/port.ts";
import type { SigningKeySource } from "./checkpoint-config.ts";
import { keyIdOf } from "./checkpoint-proof.ts";

/**
 * The service's checkpoint keys. The private key comes from the configuration and stays in memory;
 * every public key that ever signed is published in a stream of its own, so a checkpoint signed
 * before a rotation still verifies with the published list.
 */
export const CHECKPOINT_KEY_STREAM = "audit-checkpoint-keys";
const KEY_PUBLISHED = "CheckpointKeyPublished";

export interface CheckpointSigner {
  keyId: string;
  privateKey: KeyObject;
  publicKeyPem: string;
}

export async function loadCheckpointSigner(source: SigningKeySource): Promise<CheckpointSigner> {
  const pem = "pem" in source ? source.pem : await readFile(source.file, "utf8");
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    // Node's message may quote the input: say only what is wrong.
    throw new Error("Invalid configuration: the checkpoint signing key is not a private key in PEM");
  }
  if (privateKey.asymmetricKeyType !== "ed25519") {
    throw new Error(`Invalid configuration: the checkpoint signing key must be Ed25519, not ${privateKey.asymmetricKeyType}`);
  }
  const publicKey = createPublicKey(privateKey);
  return { keyId: keyIdOf(publicKey), privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

const publishedKeySchema = z.object({ keyId: z.string(), algorithm: z.literal("ed25519"), publicKey: z.string() });

export const checkpointKeySchema = publishedKeySchema
  .extend({ publishedAt: z.iso.datetime() })
  .meta({ id: "CheckpointKey", description: "A public key that signs (or signed) checkpoints" });
export type CheckpointKey = z.infer<typeof checkpointKeySchema>;

/** The answer of both routes that serve the keys (`/v1/audit/checkpoint-keys`, `/audit/checkpoint-keys`). */
export const checkpointKeyListSchema = z.object({ keys: z.array(checkpointKeySchema) });

/** Every key ever published, oldest first. */
export async function readCheckpointKeys(store: EventStore): Promise<CheckpointKey[]> {
  const events = await store.readStream(CHECKPOINT_KEY_STREAM);
  return events.map((event) => ({ ...publishedKeySchema.parse(event.data), publishedAt: event.recordedAt.toISOString() }));
}

/** Publishes the signer's public key unless it already is; instances starting together publish it once. */
export async function publishCheckpointKey(store: EventStore, signer: CheckpointSigner): Promise<void> {
  for (;;) {
    const events = await store.readStream(CHECKPOINT_KEY_STREAM);
    if (events.some((event) => event.data.keyId === signer.keyId)) return;
    const last = events.at(-1);
    const data = { keyId: signer.keyId, algorithm: "ed25519", publicKey: signer.publicKeyPem };
    try {
      await store.append(CHECKPOINT_KEY_STREAM, chainEvents(CHECKPOINT_KEY_STREAM, last, [{ type: KEY_PUBLISHED, data }]), last?.revision ?? "no_stream");
      return;
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
    }
  }
}
