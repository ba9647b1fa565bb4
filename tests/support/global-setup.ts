import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openDatabase, usePglite } from "../../src/db/connection.ts";
import { testEnvironment } from "./environment.ts";
import { createEmptyPostgresDatabase } from "./postgres-databases.ts";

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

  const template = testEnvironment.databaseUrl ? await createEmptyPostgresDatabase() : undefined;
  if (template) await (await openDatabase({ databaseUrl: template.url, dataDir: "memory://", poolSize: 1 })).close();
  project.provide("postgresTemplate", template?.name ?? "");

  return async () => {
    await template?.drop();
    await rm(dir, { recursive: true, force: true });
  };
}
