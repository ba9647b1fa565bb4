import { access, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startThrowawayPostgres, type ThrowawayPostgres } from "../../bench/chaos/postgres-server.ts";

const exists = (file: string) => access(file).then(() => true, () => false);

/** Why the server cannot run here: no binaries, and no way to install them as CI does. */
async function unavailableReason(): Promise<string | undefined> {
  const versions = await readdir("/usr/lib/postgresql").catch(() => []);
  for (const version of versions) {
    if (await exists(`/usr/lib/postgresql/${version}/bin/initdb`)) return undefined;
  }
  if (process.getuid?.() !== 0) return "PostgreSQL is not installed under /usr/lib/postgresql and installing it needs root";
  if (!(await exists("/usr/bin/apt-get"))) return "PostgreSQL is not installed under /usr/lib/postgresql and there is no apt-get";
  return undefined;
}

const skipReason = await unavailableReason();
if (skipReason) console.warn(`Skipping the throwaway PostgreSQL tests: ${skipReason}`);

async function query<Row extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

async function connectionError(url: string): Promise<NodeJS.ErrnoException | undefined> {
  return query(url, "select 1").then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error,
  );
}

describe.skipIf(skipReason !== undefined)("throwaway PostgreSQL server", () => {
  let server: ThrowawayPostgres;
  let dataDirectory: string;

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    const [row] = await query<{ data_directory: string }>(server.url, "show data_directory");
    dataDirectory = row!.data_directory;
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const notes = async () => (await query<{ note: string }>(server.url, "select note from notes order by id")).map((row) => row.note);

  it("listens on its own port with trust auth on loopback", async () => {
    expect(server.port).not.toBe(5432);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    const [settings] = await query<{ fsync: string; max_connections: string }>(
      server.url,
      "select current_setting('fsync') as fsync, current_setting('max_connections') as max_connections",
    );
    expect(settings).toEqual({ fsync: "on", max_connections: "200" });
  });

  it("keeps a committed row through a kill and the crash recovery of the next start", { timeout: 90_000 }, async () => {
    await query(server.url, "create table notes (id int primary key, note text not null)");
    await query(server.url, "insert into notes values (1, $1)", ["committed before the crash"]);

    await server.kill();
    expect((await connectionError(server.url))?.code).toBe("ECONNREFUSED");
    await server.start();
    expect(await notes()).toEqual(["committed before the crash"]);
    const log = await readFile(path.join(path.dirname(dataDirectory), "server.log"), "utf8");
    expect(log).toContain("database system was not properly shut down; automatic recovery in progress");
  });

  it("stops, starts and restarts", { timeout: 90_000 }, async () => {
    await server.stop();
    expect((await connectionError(server.url))?.code).toBe("ECONNREFUSED");
    await server.start();
    await query(server.url, "insert into notes values (2, $1)", ["after a stop"]);

    await server.restart();
    expect(await notes()).toEqual(["committed before the crash", "after a stop"]);

    await server.kill();
    await server.restart();
    expect(await notes()).toEqual(["committed before the crash", "after a stop"]);
  });

  it("deletes its directory on destroy", { timeout: 60_000 }, async () => {
    expect(await exists(dataDirectory)).toBe(true);
    await server.destroy();
    expect(await exists(dataDirectory)).toBe(false);
    expect((await connectionError(server.url))?.code).toBe("ECONNREFUSED");
  });
});
