import { createHmac, randomBytes } from "node:crypto";

export const generateFingerprintKey = (): string => randomBytes(32).toString("base64");

/**
 * A keyed HMAC of the card number: the same card gives the same fingerprint, but without the key
 * nobody can test guesses against it (a plain hash of 16 digits is brute-forced in minutes).
 */
export function createCardFingerprinter(key: string): (cardNumber: string) => string {
  const secret = Buffer.from(key, "base64");
  if (secret.length < 32) throw new Error("CARD_FINGERPRINT_KEY must be at least 32 bytes, base64");
  return (cardNumber) => createHmac("sha256", secret).update(cardNumber, "utf8").digest("base64url");
}
