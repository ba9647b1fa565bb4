import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { inject } from "vitest";
import { type DatabaseConnection, openDatabase, usePglite } from "../../src/db/connection.ts";
import { testEnvironment } from "./environment.ts";

export type TestDatabaseTarget = "postgres" | "pglite";

/** The databases this run tests against: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  return testEnvironment.databaseUrl ? ["pglite", "postgres"] : ["pglite"];
}

export interface TestDatabase extends DatabaseConnection {
  /** Connection string of the fresh PostgreSQL database; undefined on PGlite. */
  url: string | undefined;
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL server of DATABASE_URL that is dropped again on close. Both start from what the run's
 * global setup migrated once (tests/support/global-setup.ts); opening them migrates nothing more.
 */
export async function openTestDatabase(target: TestDatabaseTarget): Promise<TestDatabase> {
  if (target === "pglite") {
    const pglite = await PGlite.create({ loadDataDir: new Blob([await readFile(inject("migratedPgliteDump"))]) });
    return { ...(await usePglite(pglite)), url: undefined };
  }
  const migrated = await createPostgresDatabase(inject("postgresTemplate"));
  const connection = await openDatabase({ databaseUrl: migrated.url, dataDir: "memory://" });
  return {
    ...connection,
    url: migrated.url,
    close: async () => {
      await connection.close();
      await migrated.drop();
    },
  };
}

/** A new, empty database (no schema) on the PostgreSQL server of DATABASE_URL, and how to drop it. */
export const createEmptyPostgresDatabase = (): Promise<{ url: string; drop: () => Promise<void> }> => createPostgresDatabase("template1");

async function createPostgresDatabase(template: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = testEnvironment.databaseUrl;
  if (!serverUrl) throw new Error("DATABASE_URL is not set");
  const name = `ledger_test_${randomBytes(6).toString("hex")}`;
  await withServer(serverUrl, (client) => client.query(`create database ${name} template ${template}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

async function withServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
