import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { migrateToLatest } from "./migrations/index.ts";
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
}

/** Opens PostgreSQL (a `pg` pool) or embedded PGlite, and runs the migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseConnection> {
  const connection = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 20)
    : await openPglite(options.dataDir);
  try {
    await migrateToLatest(connection.db as Kysely<unknown>);
  } catch (error) {
    await connection.close();
    throw error;
  }
  return connection;
}

function openPostgres(connectionString: string, max: number): DatabaseConnection {
  const pool = new pg.Pool({ connectionString, max });
  // An idle client that loses its server emits 'error'; without a listener that kills the process.
  pool.on("error", () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: "postgres", close: () => db.destroy() };
}

async function openPglite(dataDir: string): Promise<DatabaseConnection> {
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory ? dataDir : path.resolve(dataDir, "pglite");
  if (!inMemory) await mkdir(location, { recursive: true });
  const pglite = await PGlite.create(location);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  return { db, kind: "pglite", close: () => db.destroy() };
}
