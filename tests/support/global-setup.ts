import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase, usePglite } from "../../src/db/connection.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (`dumpDataDir`), which every test database starts from. */
    migratedPgliteDump: string;
    /** A migrated database on DATABASE_URL's server, the template of every test database there; "" without DATABASE_URL. */
    postgresTemplate: string;
  }
}

/**
 * Migrates once for the whole run what every test file's fresh database starts from: creating and
 * migrating a PGlite takes seconds of CPU, a PostgreSQL database a few hundred milliseconds, and
 * the suite opens hundreds of them. A file then loads the dump, or creates its database from the
 * template, already migrated.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "ledger-test-databases-"));
  const dumpFile = path.join(dir, "pglite.tar");
  const pglite = await PGlite.create("memory://");
  const connection = await usePglite(pglite);
  await writeFile(dumpFile, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await connection.close();
  project.provide("migratedPgliteDump", dumpFile);

  const serverUrl = process.env.DATABASE_URL || undefined;
  const template = serverUrl ? `ledger_test_template_${randomBytes(6).toString("hex")}` : "";
  if (serverUrl) {
    await onServer(serverUrl, `create database ${template}`);
    const url = new URL(serverUrl);
    url.pathname = `/${template}`;
    await (await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://", poolSize: 1 })).close();
  }
  project.provide("postgresTemplate", template);

  return async () => {
    if (serverUrl) await onServer(serverUrl, `drop database if exists ${template} with (force)`);
    await rm(dir, { recursive: true, force: true });
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
