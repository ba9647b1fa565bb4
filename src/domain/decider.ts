/** A domain decision: the events to record, or why not. */
export type Decision<Event, Failure extends string> =
  | { ok: true; events: Event[] }
  | { ok: false; error: Failure; detail: string };

export const accept = <Event>(...events: Event[]): Decision<Event, never> => ({ ok: true, events });
export const reject = <Failure extends string>(error: Failure, detail: string): Decision<never, Failure> => ({
  ok: false,
  error,
  detail,
});

/**
 * Whether a stored event is one of a stream kind's events: narrows it by its type alone. The
 * data is not checked; every event in a stream was decided by its decider and written by it
 * (see `src/eventstore/typed-read.ts`).
 */
export type EventGuard<Event> = <Stored extends { type: string }>(event: Stored) => event is Stored & Event;

/** The guard of a stream kind whose events are of these types. */
export function eventGuard<Event extends { type: string }>(types: readonly Event["type"][]): EventGuard<Event> {
  const known = new Set<string>(types);
  return <Stored extends { type: string }>(event: Stored): event is Stored & Event => known.has(event.type);
}

/** The decider pattern: pure functions from past events and a command to new events. */
export interface Decider<State, Command, Event, Failure extends string> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Decision<Event, Failure>;
  /** Its stream's events: what a read of the stream narrows the stored events to. */
  isEvent: EventGuard<Event>;
}

/** The state a stream's events leave, from the start. */
export function fold<State, Event>(decider: Pick<Decider<State, never, Event, never>, "initialState" | "evolve">, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}
