import type { Kysely } from "kysely";
import type { CrossProcessWakes } from "../db/cross-process-wakes.ts";
import type { Database } from "../db/schema.ts";
import { createEventStoreDbEventStore } from "./eventstoredb/event-store.ts";
import type { EventStore } from "./port.ts";
import { PostgresEventStore } from "./postgres/event-store.ts";

/**
 * EventStoreDB when a connection string is configured; otherwise the events live in PostgreSQL,
 * where `wakes` tells of other processes' appends.
 */
export function openEventStore(eventStoreUrl: string | undefined, db: Kysely<Database>, wakes?: CrossProcessWakes): EventStore {
  return eventStoreUrl ? createEventStoreDbEventStore(eventStoreUrl) : new PostgresEventStore(db, { wakes });
}
