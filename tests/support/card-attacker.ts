import { createHmac, hkdfSync } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import canonicalize from "canonicalize";
import { decryptWithDataKey, type SecretBox } from "../../src/crypto/secrets.ts";
import { passesLuhn } from "../../src/domain/cards.ts";
import type { Json, TestService } from "./service.ts";

/**
 * The attacker of API.md's card-data promises: holding every copy (every table, DATA_DIR, an
 * export, the logs) and some keys, what card numbers can they compute? Two ways in:
 *
 * - decryption: every wrapped data key in the copy unwrapped with the master keys held, then every
 *   ciphertext tried with every data key so found (the vault's own code);
 * - search: for a card whose BIN they guess and whose last four they read, the ~10^5 numbers left
 *   by the Luhn check, each hashed under every key held as a fingerprint (HMAC-SHA256, as raw
 *   base64url or hex) and as the request hash of an Idempotency-Key record whose body they know,
 *   and looked up in the copy. That is how a deleted card came back in 460 ms.
 */

/** The whole log as `GET /v1/events` pages it: an export. */
export async function exportLog(api: Pick<TestService, "request">): Promise<Json[]> {
  const events: Json[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page = await api.request("GET", `/v1/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    events.push(...page.body.data);
    if (page.body.nextCursor === null || page.body.data.length === 0) return events;
    cursor = page.body.nextCursor;
  }
}

/** Every file under `dir`, as text. */
export async function filesUnder(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(entry.parentPath, entry.name)).then((bytes) => bytes.toString("latin1"))),
  );
  return texts.join("\n");
}

/** Strings in `text` that decode as keys of 32 bytes or more (base64, as the service's key files hold them). */
export function keysIn(text: string): Buffer[] {
  const found = new Set(text.match(/(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{43,}={0,2}/g));
  return [...found].map((encoded) => Buffer.from(encoded, "base64")).filter((key) => key.length >= 32);
}

/** The card numbers that decrypt from `copy` with the master keys of `secrets` (see above). */
export function decryptNumbers(copy: string, secrets: SecretBox): string[] {
  const ids = new Set(copy.match(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g));
  const wrapped = new Set(copy.match(/v2\.[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{40,}/g));
  const ciphertexts = new Set(copy.match(/[A-Za-z0-9_-]{40,}/g));
  const keys: { id: string; key: Buffer }[] = [];
  for (const candidate of wrapped) {
    for (const id of ids) {
      try {
        keys.push({ id, key: secrets.unwrapKey(candidate, `payment-method/${id}/data-key`) });
      } catch {
        // Not this payment method's key.
      }
    }
  }
  const numbers: string[] = [];
  for (const { id, key } of keys) {
    for (const ciphertext of ciphertexts) {
      try {
        numbers.push(JSON.parse(decryptWithDataKey(key, ciphertext, `payment-method/${id}/card`)).number);
      } catch {
        // Not this card's ciphertext.
      }
    }
  }
  return numbers;
}

/**
 * What the attacker knows of a card from outside: its BIN (guessed), its last four (read in the
 * copy), and requests made with it whose bodies they know but for the number (an Idempotency-Key
 * record hashed them).
 */
export interface KnownCard {
  bin: string;
  last4: string;
  length: number;
  requests: KnownRequest[];
}

export interface KnownRequest {
  method: string;
  url: string;
  /** The body, given the number. */
  body: (number: string) => unknown;
}

export const known = (number: string, requests: KnownRequest[] = []): KnownCard => ({
  bin: number.slice(0, 6),
  last4: number.slice(-4),
  length: number.length,
  requests,
});

/** The numbers with this BIN and last four that pass the Luhn check. */
function candidates({ bin, last4, length }: KnownCard): string[] {
  const middle = length - 10;
  const numbers: string[] = [];
  for (let digits = 0; digits < 10 ** middle; digits += 1) {
    const number = `${bin}${String(digits).padStart(middle, "0")}${last4}`;
    if (passesLuhn(number)) numbers.push(number);
  }
  return numbers;
}

/** How the service hashed a request for its Idempotency-Key record before card summaries: `<method> <url>\n<canonical body>`, cut around the number. */
function requestAround(request: KnownRequest): [string, string] {
  const marker = "@@number@@";
  const [before = "", after = ""] = `${request.method} ${request.url}\n${canonicalize(request.body(marker)) ?? ""}`.split(marker);
  return [before, after];
}

/**
 * The numbers of `cards` that some value in `copy` gives away under some key of `keys`: as a
 * fingerprint of the number (raw base64url, after an `fp_<id>_` prefix or not, or hex), or as the
 * request hash of a known request made with it, keyed as the service derives its request-hash key
 * from a fingerprint key.
 */
export function searchNumbers(copy: string, cards: KnownCard[], keys: Buffer[]): string[] {
  const tokens = new Set<string>();
  for (const token of copy.match(/[A-Za-z0-9_-]{43,}/g) ?? []) tokens.add(token.slice(-43)).add(token.slice(-64));
  const found = new Set<string>();
  for (const key of keys) {
    const hashKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "idempotency-request-hash", 32));
    for (const card of cards) {
      const requests = card.requests.map(requestAround);
      for (const number of candidates(card)) {
        const mac = createHmac("sha256", key).update(number).digest();
        if (tokens.has(mac.toString("base64url")) || tokens.has(mac.toString("hex"))) found.add(number);
        for (const [before, after] of requests) {
          if (tokens.has(createHmac("sha256", hashKey).update(before).update(number).update(after).digest("hex"))) found.add(number);
        }
      }
    }
  }
  return [...found].sort();
}
