import type { EventGuard } from "../domain/decider.ts";
import type { EventStore, ReadStreamOptions, RecordedEvent } from "./port.ts";

/** A stored event narrowed to its stream kind's events: its `data` typed by its `type`. */
export type Recorded<Event> = RecordedEvent & Event;

/** An event in a stream that is none of its kind's event types: a stream written by something else, or corrupted. */
export class UnexpectedEventError extends Error {
  override readonly name = "UnexpectedEventError";
  constructor(
    readonly streamId: string,
    readonly type: string,
    readonly revision: bigint,
  ) {
    super(`Stream ${streamId}: event ${type} at revision ${revision} is not one of its kind's events`);
  }
}

/**
 * A stream's events typed by its kind (`isEvent`, a decider's), read once at the edge.
 *
 * Narrowed by event type, not parsed: every event of a stream was decided by its decider and
 * appended by this service, so its data has its type's shape (older versions of a type are
 * upcast by the fold, not here). Parsing each event with zod would cost on every read of a hot
 * stream (a payment is read again at each capture, refund and outcome) and check nothing the
 * decider did not already build. An event of a type the kind does not know throws: folding it
 * would decide on a state nobody can name.
 */
export function narrowEvents<Event>(isEvent: EventGuard<Event>, streamId: string, events: readonly RecordedEvent[]): Recorded<Event>[] {
  return events.map((event) => {
    if (!isEvent(event)) throw new UnexpectedEventError(streamId, event.type, event.revision);
    return event;
  });
}

/** `store.readStream`, its events narrowed to the kind's (`narrowEvents`). */
export async function readEvents<Event>(
  store: Pick<EventStore, "readStream">,
  isEvent: EventGuard<Event>,
  streamId: string,
  options?: ReadStreamOptions,
): Promise<Recorded<Event>[]> {
  return narrowEvents(isEvent, streamId, await store.readStream(streamId, options));
}
