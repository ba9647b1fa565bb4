import { KurrentDBClient } from "@kurrent/kurrentdb-client";
import { rm } from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/connection.ts";
import { createEventStoreDbEventStore } from "../../src/eventstore/eventstoredb/event-store.ts";
import { createTestCa, type TestCa } from "../support/certificates.ts";
import { createEmptyPostgresDatabase } from "../support/postgres-databases.ts";
import { testEnvironment } from "../support/environment.ts";

/**
 * The CA of the test server's certificate: `.ci/run` sets it after scripts/ensure-postgres.sh has
 * switched SSL on with a CA of its own; any PostgreSQL whose certificate names 127.0.0.1 will do.
 */
const caFile = testEnvironment.postgresSslCaFile;
const skipReason = !testEnvironment.databaseUrl
  ? "DATABASE_URL is not set (no PostgreSQL server)"
  : !caFile
    ? "PGSSL_CA_FILE_FOR_TESTS is not set (the CA of the server's certificate; `bash scripts/ensure-postgres.sh <url>` prints it)"
    : undefined;
if (skipReason) console.warn(`SKIPPED PostgreSQL sslmode=verify-full: ${skipReason}`);

/** An error and every error it was caused by. */
function causesOf(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 10; current = (current as { cause?: unknown }).cause) chain.push(current);
  return chain;
}

/** `url` with TLS parameters added to its query. */
function withParameters(url: string, parameters: Record<string, string>): string {
  const withQuery = new URL(url);
  for (const [name, value] of Object.entries(parameters)) withQuery.searchParams.set(name, value);
  return withQuery.toString();
}

describe.skipIf(skipReason !== undefined)("PostgreSQL with sslmode=verify-full", () => {
  let otherCa: TestCa | undefined;
  afterAll(async () => {
    if (otherCa) await rm(otherCa.dir, { recursive: true, force: true });
  });

  it("connects over TLS with the server's CA, and refuses a server whose certificate another CA signed", async () => {
    const empty = await createEmptyPostgresDatabase();
    try {
      // As the service does: DATABASE_URL through the configuration, straight to the pool.
      const config = loadConfig({ DATABASE_URL: withParameters(empty.url, { sslmode: "verify-full", sslrootcert: caFile! }) });
      const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: "memory://", timeouts: config.databaseTimeouts });
      try {
        const { rows } = await sql<{ ssl: boolean; version: string }>`select ssl, version from pg_stat_ssl where pid = pg_backend_pid()`.execute(database.db);
        expect(rows[0]).toMatchObject({ ssl: true, version: expect.stringMatching(/^TLSv1\.[23]$/) });
      } finally {
        await database.close();
      }

      otherCa = await createTestCa();
      const wrongCa = withParameters(empty.url, { sslmode: "verify-full", sslrootcert: otherCa.caFile });
      const refused = await openDatabase({ databaseUrl: wrongCa, dataDir: "memory://" }).then(
        async (database) => {
          await database.close();
          throw new Error("connected with a CA that did not sign the server's certificate");
        },
        (error: unknown) => error,
      );
      // The migrations' error wraps the handshake's.
      expect(causesOf(refused)).toContainEqual(expect.objectContaining({ code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" }));
    } finally {
      await empty.drop();
    }
  }, 60_000);
});

describe("EventStoreDB's TLS options", () => {
  it("reach the client as the connection string has them", async () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    const url = `esdb://eventstore.example:2113?tls=true&tlsVerifyCert=true&tlsCAFile=${encodeURIComponent(path.join(dir, "absent-ca.crt"))}`;
    // The client reads tlsCAFile when it is made: a missing file shows that the option reached it.
    expect(() => createEventStoreDbEventStore(loadConfig({ EVENTSTORE_URL: url }).eventStoreUrl!)).toThrow(
      "Failed to load certificate file. File was not found.",
    );
    const made = vi.spyOn(KurrentDBClient, "connectionString");
    try {
      const ca = await createTestCa();
      try {
        const withCa = `esdb://eventstore.example:2113?tls=true&tlsCAFile=${ca.caFile}`;
        const store = createEventStoreDbEventStore(loadConfig({ EVENTSTORE_URL: withCa }).eventStoreUrl!);
        expect(made).toHaveBeenCalledWith(withCa);
        await store.close();
      } finally {
        await rm(ca.dir, { recursive: true, force: true });
      }
    } finally {
      made.mockRestore();
    }
  });
});
