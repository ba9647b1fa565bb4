import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { type DatabaseConnection, openDatabase, usePglite } from "../../src/db/connection.ts";
import { testEnvironment } from "./environment.ts";
import { createPostgresDatabase } from "./postgres-databases.ts";

export type TestDatabaseTarget = "postgres" | "pglite";

/** The databases this run tests against: PGlite always, PostgreSQL when DATABASE_URL is set. */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  // With the events in a live server, the targets would share its log: one target, the last.
  if (testEnvironment.journeysEventStoreUrl) return testEnvironment.databaseUrl ? ["postgres"] : ["pglite"];
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
