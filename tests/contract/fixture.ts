import type { EventStore } from "../../src/eventstore/port.ts";

/** One event store under test, as the contract suite sees it. */
export interface EventStoreFixture {
  store: EventStore;
  /**
   * Makes the next appended event's global position exceed the given one. Adapters whose
   * positions cannot be steered leave it out, and the suite says it skipped that check.
   */
  advancePositionBeyond?: (position: bigint) => Promise<void>;
  close: () => Promise<void>;
}

/** Either a ready fixture, or the reason this store cannot be tested here. */
export type FixtureSetup = () => Promise<EventStoreFixture | { skip: string }>;
