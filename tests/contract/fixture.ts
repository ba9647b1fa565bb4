import type { EventStore } from "../../src/eventstore/port.ts";

/** One event store under test, as the contract suite sees it. */
export interface EventStoreFixture {
  store: EventStore;
  /**
   * Makes the next appended event's global position exceed the given one. Adapters whose
   * positions cannot be steered leave it out, and the suite says it skipped that check.
   */
  advancePositionBeyond?: (position: bigint) => Promise<void>;
  /**
   * Where an event id must be unique (see src/eventstore/port.ts): in the whole log (PostgreSQL)
   * or in its stream only (EventStoreDB).
   */
  eventIdsUniqueIn: "log" | "stream";
  /** The largest append the store takes, in bytes of event data and metadata; none when it has no limit. */
  maxAppendSize?: number;
  close: () => Promise<void>;
}

/** Either a ready fixture, or the reason this store cannot be tested here. */
export type FixtureSetup = () => Promise<EventStoreFixture | { skip: string }>;
