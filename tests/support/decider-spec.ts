import { expect } from "vitest";
import { type Decider, fold } from "../../src/domain/decider.ts";

/**
 * A decider's test, as Emmett's DeciderSpecification: given the stream's past events, when a
 * command is decided on the state they leave, then the events it records, the code it refuses
 * with, or nothing.
 *
 *     const { given } = deciderSpec(clientDecider);
 *     given([registered]).when(choose(first)).then([chosen(first)]);
 */
export function deciderSpec<State, Command, Event, Failure extends string>(decider: Decider<State, Command, Event, Failure>) {
  return {
    given: (events: readonly Event[]) => ({
      when: (command: Command) => {
        const decision = decider.decide(command, fold(decider, events));
        return {
          /** Accepted, recording exactly these events. */
          then(expected: readonly Event[]) {
            expect(decision).toEqual({ ok: true, events: expected });
          },
          /** Accepted, recording nothing. */
          thenNothing() {
            expect(decision).toEqual({ ok: true, events: [] });
          },
          /** Refused with this code, saying why. */
          thenRefused(error: Failure) {
            expect(decision).toMatchObject({ ok: false, error });
            if (!decision.ok) expect(decision.detail).not.toBe("");
          },
        };
      },
    }),
  };
}
