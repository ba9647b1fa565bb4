import type { Kysely } from "kysely";
import type { Registries } from "../../commands/context.ts";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";

/** What route plugins are given: the stores, the clock, and the service's registries. */
export interface RouteDependencies {
  db: Kysely<Database>;
  store: EventStore;
  now: () => Date;
  registries: Registries;
}
