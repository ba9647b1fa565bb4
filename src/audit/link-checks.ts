import { z } from "zod";
import { chainHash } from "../eventstore/chain-hash.ts";
import { readChainLink } from "../eventstore/hash-chain.ts";
import type { EventStore, RecordedEvent } from "../eventstore/port.ts";

/**
 * Every event the API serves is checked against the event before it in its stream, as it is
 * read: a link that does not verify is answered flagged (`status: "broken"`, with what was
 * expected and what was found), never as if intact.
 */

const linkProblemCodes = ["altered", "link_mismatch", "predecessor_missing", "link_removed", "link_malformed"] as const;
export type LinkProblemCode = (typeof linkProblemCodes)[number];

const linkProblemSchema = z.object({
  code: z.enum(linkProblemCodes).meta({
    description:
      "altered: its content does not hash to its stored hash (edited after it was recorded); " +
      "link_mismatch: the predecessor's hash it names is not the stored hash of the event before it; " +
      "predecessor_missing: the event before it (revision - 1) is not in the log (deleted or renumbered); " +
      "link_removed: it carries no chain link though the event before it does; " +
      "link_malformed: its chain link is not two hex SHA-256 hashes",
  }),
  message: z.string(),
  expected: z.string().nullable().meta({ description: "The hash the log should hold here, when it can be computed" }),
  found: z.string().nullable().meta({ description: "The hash the log holds here (null: none)" }),
});
export type LinkProblem = z.infer<typeof linkProblemSchema>;

export const chainCheckSchema = z
  .object({
    hash: z.string().nullable().meta({ description: "The event's stored hash (`metadata.chain.hash`); null when it has none" }),
    previous: z
      .string()
      .nullable()
      .meta({ description: "The hash the event names as its predecessor's (`metadata.chain.previous`); null at revision 0" }),
    status: z.enum(["verified", "broken", "unchained"]).meta({
      description:
        "verified: its content hashes to `hash` and `previous` is the stored hash of the event before it; " +
        "broken: a link that does not verify, see `problems`; unchained: stored before hash chains existed, nothing to check",
    }),
    problems: z.array(linkProblemSchema),
  })
  .meta({ id: "ChainCheck", description: "The event's hash-chain link, checked by the service as it read it" });
export type ChainCheck = z.infer<typeof chainCheckSchema>;

/** The event before one in its stream: none at revision 0, or missing from the log. */
export type Predecessor = RecordedEvent | "none" | "missing";

export function checkLink(event: RecordedEvent, predecessor: Predecessor): ChainCheck {
  const link = readChainLink(event.metadata);
  const before = typeof predecessor === "object" ? readChainLink(predecessor.metadata) : "absent";
  const expectedPrevious = typeof before === "object" ? before.hash : null;
  const problems: LinkProblem[] = [];
  if (predecessor === "missing") {
    problems.push({
      code: "predecessor_missing",
      message: `revision ${event.revision - 1n} of the stream is not in the log`,
      expected: null,
      found: typeof link === "object" ? link.previous : null,
    });
  }
  if (link === "absent") {
    if (before === "absent") return { hash: null, previous: null, status: problems.length > 0 ? "broken" : "unchained", problems };
    problems.push({
      code: "link_removed",
      message: "it carries no chain link though the event before it does",
      expected: chainHash(expectedPrevious, event),
      found: null,
    });
    return { hash: null, previous: null, status: "broken", problems };
  }
  if (link === "malformed") {
    problems.push({ code: "link_malformed", message: "its chain link is not two hex SHA-256 hashes", expected: null, found: null });
    return { hash: null, previous: null, status: "broken", problems };
  }
  const computed = chainHash(link.previous, event);
  if (computed !== link.hash) {
    problems.push({
      code: "altered",
      message: "its content does not hash to its stored hash: it was changed after it was recorded",
      expected: computed,
      found: link.hash,
    });
  }
  if (predecessor !== "missing" && link.previous !== expectedPrevious) {
    problems.push({
      code: "link_mismatch",
      message:
        predecessor === "none"
          ? "it is the first event of its stream but names a predecessor"
          : `it does not name the stored hash of revision ${event.revision - 1n}`,
      expected: expectedPrevious,
      found: link.previous,
    });
  }
  return { hash: link.hash, previous: link.previous, status: problems.length > 0 ? "broken" : "verified", problems };
}

/** The checks of one stream's events, read in revision order (whole, or from its first revision). */
export function checkStreamLinks(events: readonly RecordedEvent[]): ChainCheck[] {
  return events.map((event, index) => {
    const before = events[index - 1];
    const predecessor: Predecessor =
      event.revision === 0n ? "none" : before && before.revision === event.revision - 1n ? before : "missing";
    return checkLink(event, predecessor);
  });
}

/** How many predecessors outside the page are read at once. */
const PREDECESSOR_READS = 8;

const positionKey = (streamId: string, revision: bigint) => `${revision}:${streamId}`;

/**
 * The checks of a page of the global log. A predecessor outside the page is read from the store
 * (one point read per stream, a few at a time).
 */
export async function checkLogLinks(store: EventStore, events: readonly RecordedEvent[]): Promise<ChainCheck[]> {
  const known = new Map(events.map((event) => [positionKey(event.streamId, event.revision), event]));
  const wanted = events.filter((event) => event.revision > 0n && !known.has(positionKey(event.streamId, event.revision - 1n)));
  for (let start = 0; start < wanted.length; start += PREDECESSOR_READS) {
    await Promise.all(
      wanted.slice(start, start + PREDECESSOR_READS).map(async ({ streamId, revision }) => {
        const [read] = await store.readStream(streamId, { from: revision - 1n, maxCount: 1 });
        if (read && read.revision === revision - 1n) known.set(positionKey(streamId, read.revision), read);
      }),
    );
  }
  return events.map((event) =>
    checkLink(event, event.revision === 0n ? "none" : (known.get(positionKey(event.streamId, event.revision - 1n)) ?? "missing")),
  );
}
