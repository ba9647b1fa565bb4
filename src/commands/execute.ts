import { type Decider, fold } from "../domain/decider.ts";
import { chainEvents, type StreamTip } from "../eventstore/hash-chain.ts";
import type { EventStore, ExpectedRevision, JsonObject } from "../eventstore/port.ts";
import { readEvents } from "../eventstore/typed-read.ts";
import { retry, type RetryPolicy } from "../retry/retry.ts";

/** Why and by whom: recorded with every event. */
export type EventMetadata = JsonObject;

export type Execution<State, Event, Failure extends string> =
  /**
   * `tip`: the stream's last event after the execution; none while the stream is empty. `before`:
   * the state the events were decided on, so a caller can tell what they changed.
   */
  | { ok: true; events: Event[]; state: State; before: State; tip: StreamTip | undefined }
  | { ok: false; error: Failure; detail: string; state: State };

/** What a caller already knows of a stream: its folded state and last event (none when new). */
export interface KnownStream<State> {
  state: State;
  tip: StreamTip | undefined;
}

export interface ExecuteOptions<State> {
  /** Decide first on this instead of reading the stream; a concurrent write makes it read. */
  known?: KnownStream<State>;
  /** Fold only the stream's last event: for streams whose every event carries the whole state. */
  lastEventOnly?: boolean;
  /** A concurrent write between the read and the append: read, decide and append again under it. */
  retryPolicy: RetryPolicy;
}

/**
 * Loads a stream, folds it, decides, and appends with the expected revision. On a concurrent
 * write it reloads and decides again (`retryPolicy`); a conflict that persists is thrown. Called
 * by the streams' handlers (`streamHandler`), which bind the decider, stream and policy.
 */
export function execute<State, Command, Event extends { type: string; data: object }, Failure extends string>(
  store: EventStore,
  decider: Decider<State, Command, Event, Failure>,
  streamId: string,
  command: Command,
  metadata: EventMetadata,
  { known, lastEventOnly = false, retryPolicy }: ExecuteOptions<State>,
): Promise<Execution<State, Event, Failure>> {
  return retry(retryPolicy, async (tryNumber): Promise<Execution<State, Event, Failure>> => {
    const { state, tip: last } =
      tryNumber === 1 && known ? known : await readStream(store, decider, streamId, lastEventOnly);
    const decision = decider.decide(command, state);
    if (!decision.ok) return { ...decision, state };

    if (decision.events.length === 0) return { ok: true, events: [], state, before: state, tip: last };
    const expected: ExpectedRevision = last === undefined ? "no_stream" : last.revision;
    // Each new event carries the hash of the one before it: the tamper-evident chain.
    const events = chainEvents(
      streamId,
      last,
      decision.events.map((event) => ({ type: event.type, data: event.data as JsonObject, metadata })),
    );
    const appended = await store.append(streamId, events, expected);
    const next = decision.events.reduce(decider.evolve, state);
    const tip = { revision: appended.nextExpectedRevision, metadata: events.at(-1)!.metadata ?? {} };
    return { ok: true, events: decision.events, state: next, before: state, tip };
  });
}

/** The stream folded: all of it, or only its last event for streams whose every event carries the whole state. */
export async function readStream<State, Event>(
  store: EventStore,
  decider: Pick<Decider<State, unknown, Event, never>, "initialState" | "evolve" | "isEvent">,
  streamId: string,
  lastEventOnly: boolean,
): Promise<KnownStream<State>> {
  const history = await readEvents(store, decider.isEvent, streamId, lastEventOnly ? { direction: "backwards", maxCount: 1 } : undefined);
  return { state: fold(decider, history), tip: history.at(-1) };
}
