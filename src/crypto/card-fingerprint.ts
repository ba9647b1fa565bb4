import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import type { Secret } from "../domain/secret.ts";
import { isBase64, keyListEntries } from "./key-list.ts";

/**
 * Card fingerprints: a keyed HMAC of the whole number, `fp_<keyId>_<base64url>`, so the same card
 * under the same key gives the same fingerprint and the fingerprint says which key made it. The
 * key is of the master keys' rank: with it and the last four, about 10^11 candidates remain, so it
 * is never stored in plain text; without it, nothing can be tested against a fingerprint. Once a
 * key is destroyed, its fingerprints match nothing and reveal nothing.
 */

export const FINGERPRINT_KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9-]{1,32}$/;
/** The id a key given bare (base64 alone, as before keys had ids) goes by. */
export const LEGACY_FINGERPRINT_KEY_ID = "1";

export class FingerprintKeyError extends Error {
  override readonly name = "FingerprintKeyError";
}

export const generateFingerprintKey = (): Buffer => randomBytes(FINGERPRINT_KEY_BYTES);

export interface FingerprintKeys {
  activeKeyId: string;
  /** Key material by id; the active one among them. */
  keys: Map<string, Buffer>;
}

export interface FingerprintKeyring {
  readonly activeKeyId: string;
  /** The number's fingerprint under the active key. */
  fingerprint(cardNumber: Secret<string>): string;
  /** The number's fingerprint under key `keyId`, or undefined when that key no longer exists. */
  fingerprintUnder(keyId: string, cardNumber: Secret<string>): string | undefined;
  /**
   * The key that keys Idempotency-Key records' request hashes under fingerprint key `keyId` (its
   * own, derived), or undefined when that key no longer exists.
   */
  requestHashKey(keyId: string): Buffer | undefined;
}

export function createFingerprintKeyring({ activeKeyId, keys }: FingerprintKeys): FingerprintKeyring {
  const active = keys.get(activeKeyId);
  if (!active) throw new FingerprintKeyError(`The active fingerprint key "${activeKeyId}" is not among the keys.`);
  const hashKeys = new Map([...keys].map(([id, key]) => [id, Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "idempotency-request-hash", 32))]));
  const fingerprintUnder = (keyId: string, cardNumber: Secret<string>) => {
    const key = keys.get(keyId);
    return key && `fp_${keyId}_${createHmac("sha256", key).update(cardNumber.expose(), "utf8").digest("base64url")}`;
  };
  return {
    activeKeyId,
    fingerprint: (cardNumber) => fingerprintUnder(activeKeyId, cardNumber)!,
    fingerprintUnder,
    requestHashKey: (keyId) => hashKeys.get(keyId),
  };
}

/**
 * Reads `CARD_FINGERPRINT_KEY`: `id:<base64>[,id:<base64>...]`, the last one active (older ones
 * stay only to check Idempotency-Key records made under them), or one bare base64 key, which goes
 * by id `1` (the form of releases before key ids).
 */
export function parseFingerprintKeys(spec: string): FingerprintKeys {
  const entries = keyListEntries(spec);
  if (entries.length === 0) throw new FingerprintKeyError("expected id:base64key[,id:base64key...]");
  const keys = new Map<string, Buffer>();
  let activeKeyId = "";
  for (const entry of entries) {
    const separator = entry.indexOf(":");
    const [keyId, encoded] = separator < 0 && entries.length === 1 ? [LEGACY_FINGERPRINT_KEY_ID, entry] : [entry.slice(0, separator), entry.slice(separator + 1)];
    if (separator < 0 && entries.length > 1) throw new FingerprintKeyError("each of several keys must be id:base64key");
    if (!KEY_ID.test(keyId)) throw new FingerprintKeyError(`key id "${keyId}" must be 1 to 32 letters, digits or "-"`);
    if (keys.has(keyId)) throw new FingerprintKeyError(`key id "${keyId}" appears twice`);
    keys.set(keyId, decodeKey(encoded, keyId));
    activeKeyId = keyId;
  }
  return { activeKeyId, keys };
}

/** Base64 of at least 32 bytes. */
export function decodeKey(encoded: string, keyId: string): Buffer {
  if (!isBase64(encoded)) throw new FingerprintKeyError(`key "${keyId}" is not base64`);
  const key = Buffer.from(encoded, "base64");
  if (key.length < FINGERPRINT_KEY_BYTES) throw new FingerprintKeyError(`key "${keyId}" must be at least ${FINGERPRINT_KEY_BYTES} bytes`);
  return key;
}
