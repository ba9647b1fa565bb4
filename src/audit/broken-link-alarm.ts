import type { Logger } from "../logger.ts";
import type { AuditEvent } from "./event-log.ts";

/** Raised by every read that serves events: logs and counts each broken link once. */
export interface BrokenLinkAlarm {
  raise(events: readonly AuditEvent[]): void;
}

/**
 * How many broken links are remembered as already reported. Past it the oldest are forgotten,
 * and reported again when read again: memory stays bounded however much of the log was edited.
 */
const REMEMBERED = 10_000;

export function createBrokenLinkAlarm({ logger, count }: { logger: Logger; count: () => void }): BrokenLinkAlarm {
  const reported = new Set<string>();
  return {
    raise(events) {
      for (const event of events) {
        if (event.chain.status !== "broken") continue;
        // The same event edited again is a new finding.
        const key = JSON.stringify([event.streamId, event.revision, event.chain]);
        if (reported.has(key)) continue;
        reported.add(key);
        if (reported.size > REMEMBERED) reported.delete(reported.values().next().value!);
        count();
        logger.error(
          { streamId: event.streamId, revision: event.revision, eventId: event.id, problems: event.chain.problems },
          "an event read from the log does not verify against its hash chain",
        );
      }
    },
  };
}
