import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { JsonObject } from "../eventstore/port.ts";
import { isBase64, keyListEntries } from "./key-list.ts";

/**
 * Envelope encryption of secrets (host credentials) at rest, with AES-256-GCM.
 *
 * Every encryption draws a fresh 256-bit data key, encrypts the payload with it, and wraps the
 * data key with a master key. The master key's id travels in the ciphertext, so the master key
 * can rotate: new writes use the active key, and older ciphertexts decrypt as long as their key
 * is still configured.
 *
 * Format: `v2.<keyId>.<wrapped data key>.<payload>`, the last two base64url of
 * `iv (12 bytes) | ciphertext | tag (16 bytes)`. The authenticated data of both is the header
 * `v2.<keyId>` and the context the caller names (what the secret belongs to, such as
 * `host-configuration/<id>/credentials`), so neither the version nor the key id can be swapped,
 * and a ciphertext copied to another owner or field does not decrypt there.
 *
 * `v1` ciphertexts, written before the context was bound, bind only their header; they stay
 * readable because stored events are never rewritten.
 */

const VERSION = "v2";
const LEGACY_VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;

// The first payload byte says what was encrypted, so decryptJson can refuse a plain string.
const KIND_STRING = 0x73; // "s"
const KIND_JSON = 0x6a; // "j"

/** The ciphertext names a master key that is not configured (retired too early?). */
export class UnknownKeyError extends Error {
  override readonly name = "UnknownKeyError";
  constructor(readonly keyId: string) {
    super(`Unknown master key id "${keyId}": it must stay configured while ciphertexts use it.`);
  }
}

/** Malformed, truncated or tampered ciphertext, or the wrong key. */
export class DecryptionError extends Error {
  override readonly name = "DecryptionError";
}

/** The master key configuration is unusable. Messages never contain key material. */
export class MasterKeyError extends Error {
  override readonly name = "MasterKeyError";
}

export interface SecretBoxOptions {
  activeKeyId: string;
  /** Master keys by id, 32 bytes each. */
  keys: Record<string, Buffer>;
}

/** `context` names what the secret belongs to; decrypting needs the context it was encrypted with. */
export interface SecretBox {
  encrypt(plaintext: JsonObject | string, context: string): string;
  /** The encrypted string, or the JSON text of an encrypted object. */
  decrypt(ciphertext: string, context: string): string;
  /** The encrypted object; throws `DecryptionError` for an encrypted string. */
  decryptJson(ciphertext: string, context: string): JsonObject;
  /** The master key that new encryptions and wrappings use. */
  readonly activeKeyId: string;
  /**
   * Wraps a data key that is kept apart from what it encrypts (the card vault's), under the active
   * master key: `v2.<keyId>.<wrapped key>`, bound to `context` like a ciphertext.
   */
  wrapKey(dataKey: Buffer, context: string): string;
  /** The data key of `wrapKey`; throws `UnknownKeyError` or `DecryptionError`. */
  unwrapKey(wrapped: string, context: string): Buffer;
}

/** Key ids never hold a newline, so header and context cannot be confused. */
const authenticatedData = (header: string, context: string) => Buffer.from(`${header}\n${context}`);

export function createSecretBox(options: SecretBoxOptions): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const [keyId, key] of Object.entries(options.keys)) {
    checkKeyId(keyId);
    if (key.length !== KEY_BYTES) throw new MasterKeyError(`Master key "${keyId}" must be ${KEY_BYTES} bytes.`);
    keys.set(keyId, Buffer.from(key)); // A copy: the caller may reuse or wipe its buffer.
  }
  const activeKey = keys.get(options.activeKeyId);
  if (!activeKey) throw new MasterKeyError(`The active master key "${options.activeKeyId}" is not among the keys.`);

  function open(ciphertext: string, context: string): Buffer {
    const parts = ciphertext.split(".");
    const [version = "", keyId = "", wrapped = "", payload = ""] = parts;
    if (parts.length !== 4 || (version !== VERSION && version !== LEGACY_VERSION)) {
      throw new DecryptionError("Not a v1 or v2 ciphertext.");
    }
    const masterKey = keys.get(keyId);
    if (!masterKey) throw new UnknownKeyError(keyId);
    const header = `${version}.${keyId}`;
    const aad = version === VERSION ? authenticatedData(header, context) : Buffer.from(header);
    const dataKey = gcmDecrypt(masterKey, wrapped, aad);
    if (dataKey.length !== KEY_BYTES) throw new DecryptionError("The wrapped data key has the wrong size.");
    return gcmDecrypt(dataKey, payload, aad);
  }

  return {
    activeKeyId: options.activeKeyId,

    wrapKey(dataKey, context) {
      if (dataKey.length !== KEY_BYTES) throw new RangeError(`A data key is ${KEY_BYTES} bytes.`);
      const header = `${VERSION}.${options.activeKeyId}`;
      return `${header}.${gcmEncrypt(activeKey, dataKey, authenticatedData(header, context))}`;
    },

    unwrapKey(wrapped, context) {
      const parts = wrapped.split(".");
      const [version = "", keyId = "", key = ""] = parts;
      if (parts.length !== 3 || version !== VERSION) throw new DecryptionError("Not a v2 wrapped key.");
      const masterKey = keys.get(keyId);
      if (!masterKey) throw new UnknownKeyError(keyId);
      const dataKey = gcmDecrypt(masterKey, key, authenticatedData(`${version}.${keyId}`, context));
      if (dataKey.length !== KEY_BYTES) throw new DecryptionError("The wrapped data key has the wrong size.");
      return dataKey;
    },

    encrypt(plaintext, context) {
      const kind = typeof plaintext === "string" ? KIND_STRING : KIND_JSON;
      const body = typeof plaintext === "string" ? plaintext : JSON.stringify(plaintext);
      const aad = authenticatedData(`${VERSION}.${options.activeKeyId}`, context);
      const dataKey = randomBytes(KEY_BYTES);
      const payload = gcmEncrypt(dataKey, Buffer.concat([Buffer.of(kind), Buffer.from(body, "utf8")]), aad);
      const wrapped = gcmEncrypt(activeKey, dataKey, aad);
      dataKey.fill(0);
      return `${VERSION}.${options.activeKeyId}.${wrapped}.${payload}`;
    },

    decrypt(ciphertext, context) {
      return open(ciphertext, context).subarray(1).toString("utf8");
    },

    decryptJson(ciphertext, context) {
      const plaintext = open(ciphertext, context);
      if (plaintext[0] !== KIND_JSON) throw new DecryptionError("The ciphertext holds a string, not a JSON object.");
      return JSON.parse(plaintext.subarray(1).toString("utf8")) as JsonObject;
    },
  };
}

/** A fresh 256-bit data key, for `wrapKey` and `encryptWithDataKey`. */
export const newDataKey = (): Buffer => randomBytes(KEY_BYTES);

/** AES-256-GCM of `plaintext` under a data key, bound to `context`: base64url of `iv | ciphertext | tag`. */
export const encryptWithDataKey = (dataKey: Buffer, plaintext: string, context: string): string =>
  gcmEncrypt(dataKey, Buffer.from(plaintext, "utf8"), Buffer.from(context));

/** The plaintext of `encryptWithDataKey`; throws `DecryptionError` for the wrong key or context. */
export const decryptWithDataKey = (dataKey: Buffer, ciphertext: string, context: string): string =>
  gcmDecrypt(dataKey, ciphertext, Buffer.from(context)).toString("utf8");

function gcmEncrypt(key: Buffer, plaintext: Buffer, aad: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const encrypted = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString("base64url");
}

function gcmDecrypt(key: Buffer, part: string, aad: Buffer): Buffer {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) throw new DecryptionError("The ciphertext is not base64url.");
  const bytes = Buffer.from(part, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new DecryptionError("The ciphertext is truncated.");
  const iv = bytes.subarray(0, IV_BYTES);
  const tag = bytes.subarray(bytes.length - TAG_BYTES);
  const encrypted = bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(encrypted), decipher.final()]);
  } catch {
    throw new DecryptionError("The ciphertext does not authenticate: tampered, or encrypted with another key.");
  }
}

function checkKeyId(keyId: string): void {
  if (!KEY_ID.test(keyId)) {
    throw new MasterKeyError(`Master key id "${keyId}" must be 1 to 64 letters, digits, "_" or "-".`);
  }
}

/**
 * Reads `k1:<base64 32 bytes>,k2:<base64 32 bytes>`. The last key is the active one, so a
 * rotation appends a new key and keeps the old ones for decrypting what they encrypted.
 */
export function parseMasterKeys(spec: string): SecretBoxOptions {
  const entries = keyListEntries(spec);
  if (entries.length === 0) throw new MasterKeyError("No master keys: expected id:base64key[,id:base64key...].");

  const keys: Record<string, Buffer> = {};
  let activeKeyId = "";
  for (const [index, entry] of entries.entries()) {
    const separator = entry.indexOf(":");
    if (separator < 0) throw new MasterKeyError(`Master key #${index + 1} must be id:base64key.`);
    const keyId = entry.slice(0, separator);
    const encoded = entry.slice(separator + 1);
    checkKeyId(keyId);
    if (Object.hasOwn(keys, keyId)) throw new MasterKeyError(`Master key id "${keyId}" appears twice.`);
    if (!isBase64(encoded)) throw new MasterKeyError(`Master key "${keyId}" is not base64.`);
    const key = Buffer.from(encoded, "base64");
    if (key.length !== KEY_BYTES) {
      throw new MasterKeyError(`Master key "${keyId}" must decode to ${KEY_BYTES} bytes, not ${key.length}.`);
    }
    keys[keyId] = key;
    activeKeyId = keyId;
  }
  return { activeKeyId, keys };
}

/** A new random master key, base64, for `parseMasterKeys`. */
export const generateMasterKey = (): string => randomBytes(KEY_BYTES).toString("base64");
