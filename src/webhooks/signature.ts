import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** "whsec_" + base64 of 32 bytes from the CSPRNG (node:crypto randomBytes). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/**
 * The Standard Webhooks headers for one attempt: webhook-id, webhook-timestamp (Unix seconds of
 * `timestamp`), webhook-signature: "v1,<base64 HMAC-SHA256 of `${id}.${ts}.${body}`>" for each
 * secret, space-separated (the key is the base64-decoded part after "whsec_").
 */
export function signatureHeaders(
  messageId: string,
  timestamp: Date,
  body: string,
  secrets: readonly string[],
): { "webhook-id": string; "webhook-timestamp": string; "webhook-signature": string } {
  if (secrets.length === 0) throw new Error("at least one webhook secret is required to sign");
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const signed = `${messageId}.${seconds}.${body}`;
  const signatures = secrets.map(
    (secret) => `v1,${createHmac("sha256", secretKey(secret)).update(signed, "utf8").digest("base64")}`,
  );
  return { "webhook-id": messageId, "webhook-timestamp": seconds, "webhook-signature": signatures.join(" ") };
}

// The error never quotes the secret: messages end up in logs.
function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`a webhook secret must start with "${SECRET_PREFIX}"`);
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}
