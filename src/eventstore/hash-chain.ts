import { z } from "zod";
import { chainHash } from "./chain-hash.ts";
import type { JsonObject, NewEvent, RecordedEvent } from "./port.ts";

/**
 * Tamper evidence. Every event's metadata carries `chain: { previous, hash }`: `previous` is the
 * hash of the event before it in its stream (null at revision 0, or when that event has no
 * chain), and `hash` is `chainHash(previous, event)` (./chain-hash.ts).
 */
export const CHAIN_KEY = "chain";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const chainLinkSchema = z.object({ previous: sha256Hex.nullable(), hash: sha256Hex });
export type ChainLink = z.infer<typeof chainLinkSchema>;

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
