import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import { type DatabaseConnection, openDatabase, openPgliteSnapshot } from "../db/connection.ts";
import { ProcessLockHeldError } from "../db/process-lock.ts";
import type { Database } from "../db/schema.ts";
import { requestSnapshot, snapshotSocketPath } from "../db/snapshots.ts";
import { openEventStore } from "../eventstore/open.ts";
import type { EventStore } from "../eventstore/port.ts";
import type { Projection } from "../projections/projection.ts";
import { writeErr } from "./output.ts";

/** The stores, opened as the service opens them. */
export interface Ledger {
  db: Kysely<Database>;
  store: EventStore;
  /** The database the events live in, when they are in PostgreSQL (no EVENTSTORE_URL). */
  eventsDb: Kysely<Database> | undefined;
  /**
   * On a snapshot of an embedded database that the service holds: brings a read model of the copy
   * up to the log, as the service's runner would (nothing else moves it there).
   */
  catchUp?: (projection: Projection) => Promise<void>;
}

export interface LedgerOptions {
  /**
   * "read": the command changes nothing the service relies on (verify writes only scratch
   * tables). On an embedded database held by the running service it then works on a snapshot
   * the service makes for it (a copy of its files); "write" commands are refused there, naming the process.
   */
  access?: "read" | "write";
}

/** Opens the database (migrated) and the event store from the configuration, runs `work`, closes both. */
export async function withLedger<T>(config: Config, work: (ledger: Ledger) => Promise<T>, { access = "write" }: LedgerOptions = {}): Promise<T> {
  const { database, snapshot } = await openLedgerDatabase(config, access);
  const store = openEventStore(config.eventStoreUrl, database.db);
  const catchUp = snapshot
    ? async (projection: Projection) => (await import("../projections/catch-up.ts")).catchUpSnapshot(database.db, store, projection)
    : undefined;
  try {
    return await work({ db: database.db, store, eventsDb: config.eventStoreUrl ? undefined : database.db, ...(catchUp && { catchUp }) });
  } finally {
    await store.close();
    await database.close();
  }
}

async function openLedgerDatabase(config: Config, access: "read" | "write"): Promise<{ database: DatabaseConnection; snapshot: boolean }> {
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      poolSize: 4,
      // A rebuild or verify scans whole tables: a statement bound that suits a request would cut it off.
      timeouts: { ...config.databaseTimeouts, statementMs: 0 },
    });
    return { database, snapshot: false };
  } catch (error) {
    if (access !== "read" || !(error instanceof ProcessLockHeldError)) throw error;
    const started = performance.now();
    let copy: string;
    try {
      copy = await requestSnapshot(snapshotSocketPath(config.dataDir));
    } catch (unavailable) {
      throw new Error(`${error.message}; it handed over no snapshot either`, { cause: unavailable });
    }
    const database = await openPgliteSnapshot(copy);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    writeErr(
      `the embedded database is in use by process ${error.holder}: working on a snapshot it made for this command ` +
        `(${copy}, ready in ${seconds} s, deleted at the end); the service's files are not opened\n`,
    );
    return { database, snapshot: true };
  }
}
