import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/connection.ts";
import type { Database } from "../db/schema.ts";
import { openEventStore } from "../eventstore/open.ts";
import type { EventStore } from "../eventstore/port.ts";

/** The stores, opened as the service opens them. */
export interface Ledger {
  db: Kysely<Database>;
  store: EventStore;
  /** The database the events live in, when they are in PostgreSQL (no EVENTSTORE_URL). */
  eventsDb: Kysely<Database> | undefined;
}

/** Opens the database (migrated) and the event store from the configuration, runs `work`, closes both. */
export async function withLedger<T>(config: Config, work: (ledger: Ledger) => Promise<T>): Promise<T> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 4,
    // A rebuild or verify scans whole tables: a statement bound that suits a request would cut it off.
    timeouts: { ...config.databaseTimeouts, statementMs: 0 },
  });
  const store = openEventStore(config.eventStoreUrl, database.db);
  try {
    return await work({ db: database.db, store, eventsDb: config.eventStoreUrl ? undefined : database.db });
  } finally {
    await store.close();
    await database.close();
  }
}
