// Copied from the service's src/eventstore/chain-hash.ts by `npm run client:generate`: do not edit.

import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * The hash-chain rule, in one place: an event's hash is the hex SHA-256 of the RFC 8785 canonical
 * JSON of `{ previous, streamId, revision, type, data, metadata }`, with `revision` as a decimal
 * string and `metadata` without its `chain` key. Canonical JSON, because jsonb does not keep key
 * order. This file imports only Node and canonicalize: the client package ships it as it is, with
 * the export verifier.
 */

/** What an event's hash covers, besides the previous hash. */
export interface ChainedContent {
  streamId: string;
  revision: bigint | number;
  type: string;
  data: Readonly<Record<string, unknown>>;
  metadata: Readonly<Record<string, unknown>>;
}

export function chainHash(previous: string | null, event: ChainedContent): string {
  const { chain: _link, ...metadata } = event.metadata;
  // Never undefined: an object always serializes.
  const canonical = canonicalize({
    previous,
    streamId: event.streamId,
    revision: String(event.revision),
    type: event.type,
    data: event.data,
    metadata,
  })!;
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}
