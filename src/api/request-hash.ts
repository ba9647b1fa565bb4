import { createHmac } from "node:crypto";
import canonicalize from "canonicalize";
import type { FastifyRequest } from "fastify";
import { LEGACY_FINGERPRINT_KEY_ID, type FingerprintKeyring } from "../crypto/card-fingerprint.ts";
import { brandAndLast4 } from "../domain/cards.ts";
import { Secret } from "../domain/secret.ts";

/**
 * The hash an Idempotency-Key record keeps of its request, to tell the same request from another.
 * It keeps nothing of a card beyond what the request's transaction or payment method keeps: the
 * card is hashed as its summary (with the inline card's fingerprint, which its transaction keeps;
 * without one for a card to store, whose fingerprint goes with its key), never its number, CVC or
 * holder name. Keyed by a key derived from a fingerprint key, named in front: `<keyId>.<hex>`.
 */
export interface RequestHasher {
  /** `body`: the request's body as it was sent (parsed JSON), before validation turned it into values of our own. */
  hash(request: FastifyRequest, body: unknown): string;
  /** Whether `stored` was made of this same request; a hash under a key destroyed since counts as the same (the key's record stays its). */
  matches(stored: string, request: FastifyRequest, body: unknown): boolean;
}

export function createRequestHasher(keyring: FingerprintKeyring): RequestHasher {
  const hashUnder = (keyId: string, request: FastifyRequest, body: unknown): string | undefined => {
    const key = keyring.requestHashKey(keyId);
    if (!key) return undefined;
    const fingerprint = (number: Secret<string>) => keyring.fingerprintUnder(keyId, number)!;
    return `${keyId}.${hmac(key, request, withCardSummarized(body ?? null, request.routeOptions.config.startsPayment ? fingerprint : undefined))}`;
  };
  return {
    hash: (request, body) => hashUnder(keyring.activeKeyId, request, body)!,
    matches(stored, request, body) {
      const separator = stored.indexOf(".");
      // Records of releases before key ids hashed the whole body, card number included, under key 1.
      if (separator < 0) {
        const key = keyring.requestHashKey(LEGACY_FINGERPRINT_KEY_ID);
        return key === undefined || hmac(key, request, body ?? null) === stored;
      }
      const expected = hashUnder(stored.slice(0, separator), request, body);
      return expected === undefined || expected === stored;
    },
  };
}

function hmac(key: Buffer, request: FastifyRequest, body: unknown): string {
  return createHmac("sha256", key)
    .update(`${request.method} ${request.url}\n${canonicalize(body) ?? ""}`)
    .digest("hex");
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The body with its card as the summary that is kept of it, and no CVC. */
function withCardSummarized(body: unknown, fingerprint: ((number: Secret<string>) => string) | undefined): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const { cvc: _cvc, card, ...rest } = body as Record<string, Json>;
  if (card === undefined) return rest;
  if (card === null || typeof card !== "object" || Array.isArray(card) || typeof card.number !== "string") return { ...rest, card };
  const { expMonth = null, expYear = null } = card;
  const number = new Secret(card.number);
  return { ...rest, card: { ...brandAndLast4(number), expMonth, expYear, ...(fingerprint && { fingerprint: fingerprint(number) }) } };
}
