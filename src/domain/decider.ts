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

/** The decider pattern: pure functions from past events and a command to new events. */
export interface Decider<State, Command, Event, Failure extends string> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Decision<Event, Failure>;
}
