import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 256 random bits, with a prefix that makes a leaked key easy to recognise and scan for. */
export function generateApiKey(kind: "admin" | "client"): string {
  return `${kind === "admin" ? "ldgr_admin_" : "ldgr_sk_"}${randomBytes(32).toString("base64url")}`;
}

/** Keys are long and random, so a fast hash is enough; only the hash is ever stored. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && timingSafeEqual(left, right);
}
