import canonicalize from "canonicalize";
import type { LoggedEvent } from "./types.ts";

/**
 * The hash chain of a stream, checked in the browser by the rule of src/eventstore/chain-hash.ts,
 * with WebCrypto (the browser has no node:crypto; tests/console/chain-hash.test.ts holds both to
 * the same hashes): each event's `metadata.chain.hash` is the hex SHA-256 of the RFC 8785 canonical JSON of
 * `{ previous, streamId, revision, type, data, metadata }` (revision as a decimal string,
 * metadata without `chain`), and `previous` is the hash of the event before it.
 */

export type LinkCheck =
  | { verdict: "verified"; hash: string }
  | { verdict: "broken"; reason: string }
  /** Stored before hash chains existed (no chained event before it): nothing to check. */
  | { verdict: "unchained" };

interface ChainLink {
  previous: string | null;
  hash: string;
}

const sha256Hex = /^[0-9a-f]{64}$/;

function chainLinkOf(metadata: LoggedEvent["metadata"]): ChainLink | "absent" | "malformed" {
  if (!("chain" in metadata)) return "absent";
  const link = metadata.chain as Partial<ChainLink> | null;
  const valid =
    typeof link === "object" &&
    link !== null &&
    typeof link.hash === "string" &&
    sha256Hex.test(link.hash) &&
    (link.previous === null || (typeof link.previous === "string" && sha256Hex.test(link.previous)));
  return valid ? (link as ChainLink) : "malformed";
}

async function hashOf(previous: string | null, event: LoggedEvent): Promise<string> {
  const { chain: _link, ...metadata } = event.metadata;
  const canonical = canonicalize({
    previous,
    streamId: event.streamId,
    revision: String(event.revision),
    type: event.type,
    data: event.data,
    metadata,
  });
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical ?? ""));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

interface EventBefore {
  revision: number;
  link: ChainLink | null;
  /** Some event before this one carried a chain link. */
  chained: boolean;
}

/**
 * One verdict per event, in order: does it follow the event before it, and is it what was hashed?
 * As the server's audit (src/audit/verify-chains.ts), an event without a link after a chained one
 * is broken: dropping the link must not hide an edit.
 */
export async function checkChain(events: readonly LoggedEvent[]): Promise<LinkCheck[]> {
  const checks: LinkCheck[] = [];
  let before: EventBefore | undefined;
  for (const event of events) {
    const link = chainLinkOf(event.metadata);
    checks.push(await checkLink(event, link, before));
    before = {
      revision: event.revision,
      link: typeof link === "object" ? link : null,
      chained: (before?.chained ?? false) || link !== "absent",
    };
  }
  return checks;
}

async function checkLink(event: LoggedEvent, link: ChainLink | "absent" | "malformed", before: EventBefore | undefined): Promise<LinkCheck> {
  if (link === "absent") {
    return before?.chained ? { verdict: "broken", reason: "its chain link was removed" } : { verdict: "unchained" };
  }
  if (link === "malformed") return { verdict: "broken", reason: "its chain link is malformed" };
  const expectedRevision = before ? before.revision + 1 : 0;
  if (event.revision !== expectedRevision) {
    return {
      verdict: "broken",
      reason: `it is revision ${event.revision} where ${expectedRevision} was expected: events are missing or out of order`,
    };
  }
  const expectedPrevious = before?.link?.hash ?? null;
  if (link.previous !== expectedPrevious) return { verdict: "broken", reason: "it does not name the hash of the event before it" };
  if ((await hashOf(link.previous, event)) !== link.hash) {
    return { verdict: "broken", reason: "its content does not match its hash: it was altered after it was recorded" };
  }
  return { verdict: "verified", hash: link.hash };
}
