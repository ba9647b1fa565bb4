import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createHash } from "node:crypto";
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
  const pool = new pg.Pool({
    connectionString,
    max,
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
  return { db, kind: "postgres", close: () => db.destroy() };
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
 * A consistent copy of an embedded database's files (a tar, as PGlite's dumpDataDir makes it),
 * taken between two of its users' transactions: the Kysely connection is held meanwhile, and a
 * checkpoint first writes every change to the files so that the copy opens without recovery.
 */
export function pgliteSnapshot(pglite: PGlite, db: Kysely<Database>): Promise<Uint8Array> {
  return db.connection().execute(async (connection) => {
    await sql`checkpoint`.execute(connection);
    return new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer());
  });
}

/** A snapshot (pgliteSnapshot) opened in memory: nothing done on it reaches the database it was taken from. */
export async function openPgliteSnapshot(snapshot: Uint8Array): Promise<DatabaseConnection> {
  return usePglite(await PGlite.create({ loadDataDir: new Blob([snapshot]) }));
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
    const snapshots = await serveSnapshots(snapshotSocketPath(dataDir), () => pgliteSnapshot(pglite, connection.db));
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
