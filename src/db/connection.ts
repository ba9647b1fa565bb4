import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createHash, randomUUID } from "node:crypto";
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { migrateToLatest } from "./migrations/index.ts";
import { takeProcessLock } from "./process-lock.ts";
import { serveSnapshots, snapshotSocketPath } from "./snapshots.ts";
import type { Database } from "./schema.ts";

export type DatabaseKind = "postgres" | "pglite";

export interface DatabaseConnection {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * PostgreSQL: the `application_name` this process's connections carry, unique to it, which the
   * database's notices name their sender by (src/db/cross-process-wakes.ts).
   */
  processName?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; unset means embedded PGlite. */
  databaseUrl: string | undefined;
  /** Where PGlite keeps its files; `memory://` keeps them in memory. */
  dataDir: string;
  poolSize?: number;
  /** PostgreSQL's bounds on each wait; unset: none (tests and benchmarks). */
  timeouts?: DatabaseTimeouts;
}

/** How long a PostgreSQL connection waits, each in milliseconds; 0 is no bound. */
export interface DatabaseTimeouts {
  /** For a connection from the pool (or a new one to the server). */
  connectMs: number;
  /** For one statement to run. */
  statementMs: number;
  /** For a lock that another transaction holds. */
  lockMs: number;
  /** That a transaction may stay open without a statement before the server ends the session. */
  idleInTransactionMs: number;
}

/** Opens PostgreSQL (a `pg` pool) or embedded PGlite, and runs the migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseConnection> {
  if (!options.databaseUrl) return openPglite(options.dataDir);
  return migrated(openPostgres(options.databaseUrl, options.poolSize ?? 20, options.timeouts));
}

/** Serves an already created PGlite instance (for example one loaded from a dump), migrated. */
export function usePglite(pglite: PGlite): Promise<DatabaseConnection> {
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return migrated({ db, kind: "pglite", close: () => db.destroy() });
}

async function migrated(connection: DatabaseConnection): Promise<DatabaseConnection> {
  try {
    await migrateToLatest(connection.db as Kysely<unknown>);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}

function openPostgres(connectionString: string, max: number, timeouts: DatabaseTimeouts | undefined): DatabaseConnection {
  const processName = `ledger ${randomUUID()}`;
  const pool = new pg.Pool({
    connectionString,
    max,
    application_name: processName,
    ...(timeouts && {
      connectionTimeoutMillis: timeouts.connectMs,
      statement_timeout: timeouts.statementMs,
      lock_timeout: timeouts.lockMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    }),
  });
  // A client that loses its server emits 'error'; without a listener that kills the process. The
  // pool listens only while a client is idle: one checked out (between two queries of a
  // transaction, or on its way to the caller) is heard from the moment it connects. The next
  // query then fails, and the pool drops the client when it comes back.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingStatements(pool) }) });
  return { db, kind: "postgres", processName, close: () => db.destroy() };
}

/**
 * Runs every parameterized query as a named prepared statement, so each connection plans it
 * once instead of on every call: planning was half the server's work per append. Kysely emits
 * a fixed set of SQL texts with parameters, so the per-connection cache stays small.
 */
function preparingStatements(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((text: string, values: readonly unknown[]) =>
      values.length === 0
        ? client.query(text)
        : client.query({ name: statementName(text), text, values: [...values] })) as unknown as PostgresPoolClient["query"],
    release: () => client.release(),
  });
  return {
    async connect() {
      const client = await pool.connect();
      let connection = wrapped.get(client);
      if (!connection) wrapped.set(client, (connection = wrap(client)));
      return connection;
    },
    end: () => pool.end(),
  };
}

const statementName = (text: string) => `k_${createHash("sha1").update(text).digest("base64url")}`;

/**
 * A consistent copy of an embedded database's files, made as PostgreSQL makes an online base
 * backup: `pg_backup_start` (a checkpoint), the files copied while the service goes on writing,
 * `pg_backup_stop`, then the write-ahead log, which covers every page changed during the copy.
 * Opening the copy (openPgliteSnapshot) replays that log from the backup label: it then stands at
 * a moment after the stop. The database is held only for the two statements, and the copy is
 * asynchronous: payments go on meanwhile. Its files are in DATA_DIR, as the database's are.
 */
export async function copyPglite(db: Kysely<Database>, location: string, into: string): Promise<void> {
  const wal = path.join(location, "pg_wal");
  await sql`select pg_backup_start('ledger snapshot', true)`.execute(db);
  let label: string;
  try {
    await cp(location, into, { recursive: true, filter: (source) => source !== wal });
  } finally {
    const { rows } = await sql<{ labelfile: string }>`select labelfile from pg_backup_stop(false)`.execute(db);
    label = rows[0]!.labelfile;
  }
  await cp(wal, path.join(into, "pg_wal"), { recursive: true });
  await writeFile(path.join(into, "backup_label"), label);
}

/** A snapshot (copyPglite) opened where it is; closing it deletes it. Nothing done on it reaches the database it was taken from. */
export async function openPgliteSnapshot(location: string): Promise<DatabaseConnection> {
  try {
    const connection = await usePglite(await PGlite.create(location));
    return {
      ...connection,
      async close() {
        try {
          await connection.close();
        } finally {
          await rm(location, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(location, { recursive: true, force: true });
    throw error;
  }
}

/**
 * PGlite in a directory serves one process: a second one opening it (the CLI next to the
 * service) corrupts its catalog for good, so a lock in DATA_DIR refuses it. The process that
 * holds it hands snapshots to the read-only commands of the CLI instead (src/db/snapshots.ts).
 */
async function openPglite(dataDir: string): Promise<DatabaseConnection> {
  if (dataDir.startsWith("memory://")) return usePglite(await PGlite.create(dataDir));
  const location = path.resolve(dataDir, "pglite");
  await mkdir(location, { recursive: true });
  const lock = await takeProcessLock(path.resolve(dataDir, "pglite.lock"), `The embedded database in ${path.resolve(dataDir)}`);
  try {
    const pglite = await PGlite.create(location);
    const connection = await usePglite(pglite);
    // Copies a command left behind (it deletes its own when it closes).
    const copies = path.resolve(dataDir, "snapshots");
    await rm(copies, { recursive: true, force: true });
    // One backup at a time: PGlite's one session can have one in progress.
    let previous: Promise<unknown> = Promise.resolve();
    const snapshot = () => {
      const into = path.join(copies, randomUUID());
      const copied = previous.then(async () => {
        await mkdir(copies, { recursive: true, mode: 0o700 });
        await copyPglite(connection.db, location, into);
        return into;
      });
      previous = copied.catch(() => undefined);
      return copied;
    };
    const snapshots = await serveSnapshots(snapshotSocketPath(dataDir), snapshot);
    return {
      ...connection,
      async close() {
        try {
          await snapshots?.close();
          await connection.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
