import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { z } from "zod";
import type { JsonObject, NewEvent, RecordedEvent } from "./port.ts";

/**
 * Tamper evidence. Every event's metadata carries `chain: { previous, hash }`: `previous` is the
 * hash of the event before it in its stream (null at revision 0, or when that event has no
 * chain), and `hash` is the hex SHA-256 of the RFC 8785 canonical JSON of
 * `{ previous, streamId, revision, type, data, metadata }`, with `revision` as a decimal string
 * and `metadata` without its `chain` key. Canonical JSON, because jsonb does not keep key order.
 */
export const CHAIN_KEY = "chain";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const chainLinkSchema = z.object({ previous: sha256Hex.nullable(), hash: sha256Hex });
export type ChainLink = z.infer<typeof chainLinkSchema>;

/** What an event's hash covers, besides the previous hash. */
export interface ChainedContent {
  streamId: string;
  revision: bigint;
  type: string;
  data: JsonObject;
  metadata: JsonObject;
}

export function chainHash(previous: string | null, event: ChainedContent): string {
  const { [CHAIN_KEY]: _link, ...metadata } = event.metadata;
  // Never undefined: an object always serializes.
  const canonical = canonicalize({
    previous,
    streamId: event.streamId,
    revision: event.revision.toString(),
    type: event.type,
    data: event.data,
    metadata,
  })!;
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

/** The event's chain link; "absent" for events stored before hash chains existed. */
export function readChainLink(metadata: JsonObject): ChainLink | "absent" | "malformed" {
  if (!(CHAIN_KEY in metadata)) return "absent";
  const parsed = chainLinkSchema.safeParse(metadata[CHAIN_KEY]);
  return parsed.success ? parsed.data : "malformed";
}

/** What the chain needs of a stream's last event. */
export type StreamTip = Pick<RecordedEvent, "revision" | "metadata">;

/**
 * The events to append after `last` (the stream's last event; undefined for a new stream), each
 * linked to the one before it. The caller must append them right after `last`, at its revision.
 */
export function chainEvents(streamId: string, last: StreamTip | undefined, events: readonly NewEvent[]): NewEvent[] {
  const lastLink = last && readChainLink(last.metadata);
  let previous = typeof lastLink === "object" ? lastLink.hash : null;
  let revision = last ? last.revision + 1n : 0n;
  return events.map((event) => {
    const metadata = event.metadata ?? {};
    const hash = chainHash(previous, { streamId, revision, type: event.type, data: event.data, metadata });
    const link: ChainLink = { previous, hash };
    previous = hash;
    revision += 1n;
    return { ...event, metadata: { ...metadata, [CHAIN_KEY]: link } };
  });
}
