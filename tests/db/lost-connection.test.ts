import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";

const skip = testDatabaseTargets().includes("postgres") ? undefined : "a lost server connection needs PostgreSQL: set DATABASE_URL";
if (skip) console.warn(`SKIPPED a connection lost between queries: ${skip}`);

describe.skipIf(skip)("a connection the server ends between two queries (PostgreSQL restarts, an administrator terminates it)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase("postgres");
  });
  afterAll(() => database?.close());

  it("fails the next query, never the process, and the pool carries on with fresh connections", async () => {
    const { db } = database;
    const next = await db.connection().execute(async (connection) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection);
      // Ended from another connection while this one is checked out and idle, as a server restart ends it.
      await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(db);
      await new Promise((resolve) => setTimeout(resolve, 500));
      return sql`select 1`.execute(connection).then(
        () => "answered",
        () => "failed",
      );
    });
    expect(next).toBe("failed");
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
