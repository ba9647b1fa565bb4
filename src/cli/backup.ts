import { copyFile, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Ledger } from "./connection.ts";
import { count, writeErr, writeOut } from "./output.ts";

/**
 * A logical backup of the database: every row of every table, as JSON, one file per table, with
 * a manifest. Only the rows the database holds go in: a deleted row (a payment method's data key
 * erased with the card) is in no file, whereas a copy of the files of an embedded database keeps
 * deleted rows in its pages and its write-ahead log until they are overwritten. DATA_DIR's
 * generated master keys are copied beside it (`master-keys`), to be kept apart from the rest.
 */

const FORMAT = "payment-ledger-backup/1";
/** Kept by the migrations themselves: a restore runs them. */
const SKIPPED = new Set(["kysely_migration", "kysely_migration_lock"]);
const PAGE_ROWS = 1_000;

interface Manifest {
  format: typeof FORMAT;
  createdAt: string;
  migrations: string[];
  tables: Record<string, number>;
  sequences: Record<string, { lastValue: string; isCalled: boolean }>;
  masterKeys: boolean;
}

type Db = Kysely<Database>;

async function tablesOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name
  `.execute(db);
  return rows.map((row) => row.name).filter((name) => !SKIPPED.has(name));
}

async function migrationsOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

async function sequencesOf(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select sequence_name as name from information_schema.sequences where sequence_schema = 'public' order by sequence_name
  `.execute(db);
  return rows.map((row) => row.name);
}

/** Writes the backup of the database (and DATA_DIR's generated master keys) into `dir`, which must not hold one. */
export async function backup({ db }: Ledger, dataDir: string, dir: string): Promise<number> {
  await mkdir(path.join(dir, "tables"), { recursive: true });
  if (await exists(path.join(dir, "manifest.json"))) throw new Error(`${dir} already holds a backup`);
  // One snapshot for every table: a backup of a running PostgreSQL is consistent too.
  const manifest = await db
    .transaction()
    .setIsolationLevel("repeatable read")
    .execute(async (trx) => {
      const tables: Record<string, number> = {};
      for (const table of await tablesOf(trx)) {
        const { rows } = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table)} t`.execute(trx);
        await writeFile(path.join(dir, "tables", `${table}.ndjson`), rows.map((row) => `${row.row}\n`).join(""));
        tables[table] = rows.length;
      }
      const sequences: Manifest["sequences"] = {};
      for (const sequence of await sequencesOf(trx)) {
        const { rows } = await sql<{ last_value: string; is_called: boolean }>`
          select last_value::text as last_value, is_called from ${sql.table(sequence)}
        `.execute(trx);
        sequences[sequence] = { lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called };
      }
      return { tables, sequences, migrations: await migrationsOf(trx) };
    });
  const keys = path.resolve(dataDir, "master-keys");
  const masterKeys = !dataDir.startsWith("memory://") && (await exists(keys));
  if (masterKeys) await copyFile(keys, path.join(dir, "master-keys"));
  const written: Manifest = { format: FORMAT, createdAt: new Date().toISOString(), ...manifest, masterKeys };
  await writeFile(path.join(dir, "manifest.json"), `${JSON.stringify(written, null, 2)}\n`);
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  await writeOut(
    `backed up ${count(rows, "row")} of ${count(Object.keys(manifest.tables).length, "table")} (${count(manifest.tables.events ?? 0, "event")}) into ${dir}` +
      `${masterKeys ? "; DATA_DIR's master keys are in master-keys: keep that file apart from the rest" : ""}\n`,
  );
  return 0;
}

/** Restores a backup into an empty database (and DATA_DIR), made by the same release's migrations. */
export async function restore({ db }: Ledger, dataDir: string, dir: string): Promise<number> {
  const manifest = JSON.parse(await readFile(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  if (manifest.format !== FORMAT) throw new Error(`${dir} is not a backup of this ledger (format ${String(manifest.format)})`);
  const migrations = await migrationsOf(db);
  if (JSON.stringify(migrations) !== JSON.stringify(manifest.migrations)) {
    throw new Error(
      `the backup was made with ${count(manifest.migrations.length, "migration")} (the last ${manifest.migrations.at(-1)}), this release has ` +
        `${migrations.length} (the last ${migrations.at(-1)}): restore it with the release that made it, then upgrade`,
    );
  }
  const { rows } = await sql<{ events: string }>`select count(*)::text as events from events`.execute(db);
  if (rows[0]!.events !== "0") throw new Error("the database already holds events: restore into an empty one (a new DATA_DIR or database)");

  if (manifest.masterKeys) {
    if (dataDir.startsWith("memory://")) throw new Error("the backup holds DATA_DIR's master keys: give a DATA_DIR to restore them into");
    const target = path.resolve(dataDir, "master-keys");
    const backedUp = await readFile(path.join(dir, "master-keys"));
    if (await exists(target)) {
      if (!(await readFile(target)).equals(backedUp)) throw new Error(`${target} holds other master keys: restore into a new DATA_DIR`);
    } else {
      await mkdir(path.resolve(dataDir), { recursive: true });
      await writeFile(target, backedUp, { mode: 0o600 });
    }
  }

  await advanceTransactionIds(db, await lastTransactionId(path.join(dir, "tables", "events.ndjson")));

  const tables = await tablesOf(db);
  const missing = Object.keys(manifest.tables).filter((table) => !tables.includes(table));
  if (missing.length > 0) throw new Error(`the backup has tables this database lacks: ${missing.join(", ")}`);
  await db.transaction().execute(async (trx) => {
    // Rows go in as they were: no trigger or foreign key checks them again on the way (and the
    // rows the migrations seed make way for the backup's).
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const table of tables) await sql`delete from ${sql.table(table)}`.execute(trx);
    for (const [table, expected] of Object.entries(manifest.tables)) {
      const columns = await insertableColumns(trx, table);
      const lines = (await readFile(path.join(dir, "tables", `${table}.ndjson`), "utf8")).split("\n").filter((line) => line !== "");
      if (lines.length !== expected) throw new Error(`tables/${table}.ndjson holds ${lines.length} rows, the manifest ${expected}`);
      const list = sql.join(columns.map((column) => sql.id(column)));
      for (let start = 0; start < lines.length; start += PAGE_ROWS) {
        const page = `[${lines.slice(start, start + PAGE_ROWS).join(",")}]`;
        await sql`
          insert into ${sql.table(table)} (${list}) overriding system value
          select ${list} from json_populate_recordset(null::${sql.table(table)}, ${page}::json)
        `.execute(trx);
      }
    }
    for (const [sequence, { lastValue, isCalled }] of Object.entries(manifest.sequences)) {
      await sql`select setval(${sequence}::regclass, ${lastValue}::bigint, ${isCalled})`.execute(trx);
    }
  });
  const restored = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  await writeOut(`restored ${count(restored, "row")} of ${count(Object.keys(manifest.tables).length, "table")} from ${dir} (made ${manifest.createdAt})\n`);
  writeErr("run `ledger verify` on it before the service starts on it\n");
  return 0;
}

/** The highest `transaction_id` among the backed-up events ("0" without any). */
async function lastTransactionId(eventsFile: string): Promise<bigint> {
  let last = 0n;
  for (const line of (await readFile(eventsFile, "utf8")).split("\n")) {
    if (line === "") continue;
    const id = BigInt((JSON.parse(line) as { transaction_id: string }).transaction_id);
    if (id > last) last = id;
  }
  return last;
}

/**
 * Moves this database's transaction ids past `last`. The log is read below the oldest
 * transaction id that may still commit events (src/eventstore/postgres/read-horizon.ts), and the
 * restored events keep the ids of the database they were made in: a new database's counter,
 * far behind, would hide every one of them until it passed them. Each commit uses up one id.
 */
async function advanceTransactionIds(db: Db, last: bigint): Promise<void> {
  await sql
    .raw(`do $$ begin while pg_current_xact_id() <= '${last.toString()}'::xid8 loop commit; end loop; end $$`)
    .execute(db);
}

async function insertableColumns(db: Db, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_schema = 'public' and table_name = ${table} and is_generated = 'NEVER'
    order by ordinal_position
  `.execute(db);
  return rows.map((row) => row.name);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
