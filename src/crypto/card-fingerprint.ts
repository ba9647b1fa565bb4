import { createHmac, hkdfSync, randomBytes } from "node:crypto";

export const generateFingerprintKey = (): string => randomBytes(32).toString("base64");

/**
 * A keyed HMAC of the card number: the same card gives the same fingerprint, but without the key
 * nobody can test guesses against it (a plain hash of 16 digits is brute-forced in minutes).
 */
export function createCardFingerprinter(key: string): (cardNumber: string) => string {
  const secret = fingerprintSecret(key);
  return (cardNumber) => createHmac("sha256", secret).update(cardNumber, "utf8").digest("base64url");
}

/**
 * The key of idempotent requests' hashes: their bodies hold card numbers, so the hash is keyed
 * like a fingerprint, with a key of its own derived from the fingerprint key.
 */
export function requestHashKeyOf(fingerprintKey: string): Buffer {
  return Buffer.from(hkdfSync("sha256", fingerprintSecret(fingerprintKey), Buffer.alloc(0), "idempotency-request-hash", 32));
}

function fingerprintSecret(key: string): Buffer {
  const secret = Buffer.from(key, "base64");
  if (secret.length < 32) throw new Error("CARD_FINGERPRINT_KEY must be at least 32 bytes, base64");
  return secret;
}
