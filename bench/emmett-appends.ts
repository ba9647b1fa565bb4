import { readFileSync } from "node:fs";
import { getPostgreSQLEventStore, messagesTable } from "@event-driven-io/emmett-postgresql";
import pg from "pg";
import { z } from "zod";
import type { AppendTarget } from "./appends.ts";
import { openTarget } from "./support.ts";

/**
 * Emmett's PostgreSQL event store (`@event-driven-io/emmett-postgresql`) as a peer of ours in
 * bench:appends: a fresh database of its own on the same server, its schema created before the
 * writers start, and a `pg` pool of `poolSize` connections, as ours has.
 */
export async function openEmmettTarget(serverUrl: string, poolSize: number): Promise<AppendTarget> {
  // openTarget gives a fresh database and drops it on close; our own tables in it stay unused.
  const database = await openTarget("postgres", serverUrl);
  if (database.url === undefined) throw new Error("a PostgreSQL bench database has a connection string");
  const pool = new pg.Pool({ connectionString: database.url, max: poolSize });
  const store = getPostgreSQLEventStore(database.url, { connectionOptions: { pool } });
  const close = async () => {
    await store.close();
    await pool.end();
    await database.close();
  };
  try {
    await store.schema.migrate();
  } catch (error) {
    await close();
    throw error;
  }
  return {
    label: `Emmett ${emmettVersion()} postgres (pool ${poolSize})`,
    async append(streamId, event, revision) {
      // Emmett counts a stream's version in events: after `revision` events it is `revision`.
      await store.appendToStream(streamId, [event], {
        expectedStreamVersion: revision === 0 ? "STREAM_DOES_NOT_EXIST" : BigInt(revision),
      });
    },
    async countEvents() {
      const { rows } = await pool.query<{ count: string }>(`select count(*)::text as count from ${messagesTable.name}`);
      return Number(rows[0]?.count);
    },
    close,
  };
}

/** The installed version, from the package's package.json (which its exports do not expose). */
function emmettVersion(): string {
  const entry = import.meta.resolve("@event-driven-io/emmett-postgresql");
  const packageJson = readFileSync(new URL("../package.json", entry), "utf8");
  return z.object({ version: z.string() }).parse(JSON.parse(packageJson)).version;
}
