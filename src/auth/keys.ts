import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const CLIENT_KEY_KIND = "ldgr_sk_";
/** Four of a key's 43 random characters: enough to tell a client's keys apart, nothing to guess the rest with. */
const SHOWN_RANDOM_CHARACTERS = 4;

/** 256 random bits, with a prefix that makes a leaked key easy to recognise and scan for. */
export function generateApiKey(kind: "admin" | "client"): string {
  return `${kind === "admin" ? "ldgr_admin_" : CLIENT_KEY_KIND}${randomBytes(32).toString("base64url")}`;
}

/** What a client's key list shows of a client key. */
export const keyPrefixOf = (key: string) => key.slice(0, CLIENT_KEY_KIND.length + SHOWN_RANDOM_CHARACTERS);

/** What is known of a key issued before prefixes were kept: its kind. */
export const UNKNOWN_KEY_PREFIX = CLIENT_KEY_KIND;

/** Keys are long and random, so a fast hash is enough; only the hash is ever stored. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
