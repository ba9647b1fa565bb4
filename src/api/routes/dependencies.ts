import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";

/** What route plugins are given: the stores and the clock. */
export interface RouteDependencies {
  db: Kysely<Database>;
  store: EventStore;
  now: () => Date;
}
