import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Checkpoint, EventStore, JsonObject, RecordedEvent } from "../eventstore/port.ts";
import { readModelReachingReplay } from "../retry/policies.ts";
import { poll } from "../retry/retry.ts";
import { readCheckpoint } from "./checkpoints.ts";
import type { Projection } from "./projection.ts";
import { applyInto, notReplayed, type Replayed, replayInto, type SchemaRef, withShadowTables } from "./rebuild.ts";

/** Rows of one table found on one side only, named by their primary key. */
export interface RowsOnlyIn {
  count: number;
  /** The first keys, in key order. */
  sample: JsonObject[];
}

/** A field of a row that both sides have under one key, with different values; nested JSON named by its path (`view.amount`). */
export interface FieldDifference {
  field: string;
  /** Undefined when that side has no such field. */
  live: unknown;
  replayed: unknown;
}

/** A row both sides have under one key, with different values. */
export interface ChangedRow {
  key: JsonObject;
  fields: FieldDifference[];
}

export interface TableDifference {
  table: string;
  /** Live rows the replay does not have as they are: stale, edited or extra. */
  onlyLive: RowsOnlyIn;
  /** Replayed rows the live table does not have as they are: missing or edited there. */
  onlyReplay: RowsOnlyIn;
  /** Of those, the rows both sides have under the same key: how many, and the first with the fields that differ. */
  changed: { count: number; sample: ChangedRow[] };
}

export type ReadModelVerdict =
  | { projection: string; status: "compared"; events: number; differences: TableDifference[] }
  /**
   * The live read model never stood where the replay stood: it is behind, or the log kept moving.
   * Each side is named by the position of the last event it applied.
   */
  | { projection: string; status: "unsettled"; live: bigint | null; replayed: bigint | null };

export interface VerifyReadModelOptions {
  db: Kysely<Database>;
  store: EventStore;
  projection: Projection;
  batchSize?: number;
  /** How long to wait for the live read model to reach the replay's checkpoint. */
  settleTimeoutMs?: number;
  /** How many row keys to name per table and side. */
  sampleSize?: number;
  onProgress?: (replayed: Replayed) => void;
  /** Before each comparison: on a snapshot, brings the live read model up to the log, since nothing else does. */
  beforeCompare?: () => Promise<void>;
}

/**
 * Replays the log into scratch copies of the projection's tables (never swapped in) and compares
 * them with the live tables (compareWithReplay).
 */
export async function verifyReadModel(options: VerifyReadModelOptions): Promise<ReadModelVerdict> {
  const { db, store, projection, batchSize = 2_000, settleTimeoutMs = 10_000, onProgress } = options;
  return withShadowTables(db, projection, "verify", async (schema) => {
    const deadline = Date.now() + settleTimeoutMs;
    const replayed = await replayInto({ db, store, projection, schema, from: notReplayed, batchSize, onProgress });
    return compareWithReplay({ ...options, schema, replayed, deadline });
  });
}

/** A projection's scratch copies of its tables. */
export interface Shadow {
  projection: Projection;
  schema: SchemaRef;
}

/** Runs `work` with scratch copies of every projection's tables (withShadowTables for each). */
export async function withShadows<T>(db: Kysely<Database>, projections: readonly Projection[], work: (shadows: Shadow[]) => Promise<T>): Promise<T> {
  const [projection, ...rest] = projections;
  if (!projection) return work([]);
  return withShadowTables(db, projection, "verify", (schema) => withShadows(db, rest, (shadows) => work([{ projection, schema }, ...shadows])));
}

export interface ReplayLogOptions {
  db: Kysely<Database>;
  store: EventStore;
  shadows: readonly Shadow[];
  batchSize?: number;
  /** Every batch of the log, in global order: what else checks the log (the hash chains) reads it here too. */
  onEvents?: (events: readonly RecordedEvent[]) => void;
  /** After every batch: the events read so far, and the last one. */
  onProgress?: (events: number, last: RecordedEvent | undefined) => void;
}

/**
 * Replays the log into every shadow, reading it once for all of them: each batch goes to each
 * projection's scratch tables, its own events only. Returns how far each shadow got, in order.
 */
export async function replayLog(options: ReplayLogOptions): Promise<Replayed[]> {
  const { db, store, shadows, batchSize = 2_000, onEvents, onProgress } = options;
  const replayed = shadows.map(() => notReplayed);
  const readAfter = (after: Checkpoint | null) => {
    const read = store.readAll({ after, batchSize });
    // Awaited on the next turn; a failure of this batch's apply must not leave it unhandled.
    read.catch(() => {});
    return read;
  };
  let checkpoint: Checkpoint | null = null;
  let events = 0;
  let next = readAfter(checkpoint);
  for (;;) {
    const batch = await next;
    if (batch.checkpoint === checkpoint) return replayed;
    // The log's next page is read while this one is applied: the read depends on no applied row.
    next = readAfter(batch.checkpoint);
    onEvents?.(batch.events);
    for (const [index, { projection, schema }] of shadows.entries()) {
      const types = projection.eventTypes;
      const own = types ? batch.events.filter((event) => types.includes(event.type)) : batch.events;
      if (own.length > 0) await applyInto(db, store, projection, schema, own);
      const before = replayed[index]!;
      replayed[index] = { checkpoint: batch.checkpoint, events: before.events + own.length, last: own.at(-1) ?? before.last };
    }
    checkpoint = batch.checkpoint;
    events += batch.events.length;
    onProgress?.(events, batch.events.at(-1));
  }
}

export interface CompareWithReplayOptions extends Omit<VerifyReadModelOptions, "settleTimeoutMs"> {
  schema: SchemaRef;
  /** How far the log has been replayed into `schema`. */
  replayed: Replayed;
  /** Until when (Date.now()) to wait for the live read model to reach the replay's checkpoint. */
  deadline: number;
}

/**
 * Compares the projection's scratch tables, replayed up to `replayed`, with the live tables row
 * by row, every column (sameRows; where they differ, `except` both ways names the rows). The
 * comparison runs in one snapshot in which the live read model's last applied event is the
 * replay's, so a service that keeps projecting meanwhile raises no false alarm: until they are
 * the same the replay catches up again.
 * Checkpoints cannot be compared: a filtered reader's checkpoint may lie anywhere from its last
 * event to the end of the log (on EventStoreDB a live subscription's moves past other records
 * only at the server's checkpoints, while a read scans to the end).
 */
export async function compareWithReplay(options: CompareWithReplayOptions): Promise<ReadModelVerdict> {
  const { db, store, projection, schema, deadline, batchSize = 2_000, sampleSize = 10, onProgress, beforeCompare } = options;
  let { replayed } = options;
  let compared: { live: bigint | null; differences?: TableDifference[] } = { live: null };
  let looks = 0;
  const settled = await poll(readModelReachingReplay(Math.max(0, deadline - Date.now())), async () => {
    looks += 1;
    if (looks > 1) replayed = await replayInto({ db, store, projection, schema, from: replayed, batchSize, onProgress });
    await beforeCompare?.();
    compared = await db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const live = (await readCheckpoint(trx, projection.name)).lastPosition;
        if (live !== (replayed.last?.position ?? null)) return { live };
        return { live, differences: await compareTables(trx, projection, schema, sampleSize) };
      });
    // Client commands apply their own events at once, so rows may hold an event that neither the
    // runner nor the replay could read yet: such differences only say the comparison came early.
    const early = compared.differences?.length && (await store.hasEventsAfter(replayed.checkpoint, projection.eventTypes));
    return compared.differences !== undefined && !early;
  });
  if (settled && compared.differences) {
    return { projection: projection.name, status: "compared", events: replayed.events, differences: compared.differences };
  }
  return { projection: projection.name, status: "unsettled", live: compared.live, replayed: replayed.last?.position ?? null };
}

/** The tables that differ; empty when the read model equals the replay. */
async function compareTables(
  trx: Transaction<Database>,
  projection: Projection,
  schema: SchemaRef,
  sampleSize: number,
): Promise<TableDifference[]> {
  const differences: TableDifference[] = [];
  for (const table of projection.tables) {
    const keys = await primaryKey(trx, table);
    const columns = await tableColumns(trx, table);
    if (await sameRows(trx, table, schema, columns, keys)) continue;
    const comparable = comparableColumns(columns);
    const live = sql`(select ${comparable} from public.${sql.id(table)})`;
    const replayed = sql`(select ${comparable} from ${schema.id}.${sql.id(table)})`;
    const onlyLive = await rowsOnlyIn(trx, live, replayed, keys, sampleSize);
    const onlyReplay = await rowsOnlyIn(trx, replayed, live, keys, sampleSize);
    if (onlyLive.count > 0 || onlyReplay.count > 0) {
      differences.push({ table, onlyLive, onlyReplay, changed: await changedRows(trx, live, replayed, keys, sampleSize) });
    }
  }
  return differences;
}

async function rowsOnlyIn(
  trx: Transaction<Database>,
  side: RawBuilder<unknown>,
  other: RawBuilder<unknown>,
  keys: string[],
  sampleSize: number,
): Promise<RowsOnlyIn> {
  const { rows } = await sql<{ total: string; key: JsonObject }>`
    select (count(*) over ())::text as total,
           jsonb_build_object(${sql.join(keys.map((key) => sql`${key}::text, d.${sql.id(key)}`))}) as key
    from (select * from ${side} as s except select * from ${other} as o) d
    order by ${sql.join(keys.map((key) => sql`d.${sql.id(key)}`))}
    limit ${sampleSize}
  `.execute(trx);
  return { count: Number(rows[0]?.total ?? 0), sample: rows.map((row) => row.key) };
}

/** The rows that differ under a key both sides have, each with its differing fields. */
async function changedRows(
  trx: Transaction<Database>,
  live: RawBuilder<unknown>,
  replayed: RawBuilder<unknown>,
  keys: string[],
  sampleSize: number,
): Promise<TableDifference["changed"]> {
  const { rows } = await sql<{ total: string; key: JsonObject; live: JsonObject; replayed: JsonObject }>`
    select (count(*) over ())::text as total,
           jsonb_build_object(${sql.join(keys.map((key) => sql`${key}::text, l.${sql.id(key)}`))}) as key,
           to_jsonb(l) as live, to_jsonb(r) as replayed
    from (select * from ${live} as s except select * from ${replayed} as o) l
    join (select * from ${replayed} as s except select * from ${live} as o) r
      on ${sql.join(keys.map((key) => sql`l.${sql.id(key)} = r.${sql.id(key)}`), sql` and `)}
    order by ${sql.join(keys.map((key) => sql`l.${sql.id(key)}`))}
    limit ${sampleSize}
  `.execute(trx);
  return {
    count: Number(rows[0]?.total ?? 0),
    sample: rows.map((row) => ({ key: row.key, fields: fieldDifferences("", row.live, row.replayed) })),
  };
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields under `path` whose values differ, descending into objects on both sides. */
function fieldDifferences(path: string, live: unknown, replayed: unknown): FieldDifference[] {
  if (isJsonObject(live) && isJsonObject(replayed)) {
    const names = [...new Set([...Object.keys(live), ...Object.keys(replayed)])].sort();
    return names.flatMap((name) => fieldDifferences(path === "" ? name : `${path}.${name}`, live[name], replayed[name]));
  }
  // Both sides come from jsonb, whose objects keep one key order: equal values serialize alike.
  return JSON.stringify(live) === JSON.stringify(replayed) ? [] : [{ field: path, live, replayed }];
}

type Column = { column_name: string; data_type: string };

async function tableColumns(trx: Transaction<Database>, table: string): Promise<Column[]> {
  const { rows } = await sql<Column>`
    select column_name, data_type from information_schema.columns
    where table_schema = 'public' and table_name = ${table}
    order by ordinal_position
  `.execute(trx);
  return rows;
}

/**
 * The table's columns, each as it compares: json (stored as written, so two equal documents may
 * differ in key order, and json has no equality) is compared as jsonb.
 */
function comparableColumns(columns: Column[]): RawBuilder<unknown> {
  return sql.join(
    columns.map(({ column_name: name, data_type: type }) => (type === "json" ? sql`${sql.id(name)}::jsonb as ${sql.id(name)}` : sql.id(name))),
  );
}

/**
 * Whether both sides hold the same rows, each column compared as in `comparableColumns`, in one
 * pass over each side: the usual answer, found without the two `except`s that name the
 * differences. A json column is converted to jsonb only where its text differs: identical text is
 * the same document, and the conversion is most of the comparison's cost.
 */
async function sameRows(trx: Transaction<Database>, table: string, schema: SchemaRef, columns: Column[], keys: string[]): Promise<boolean> {
  const equal = columns.map(({ column_name: name, data_type: type }) => {
    const [l, r] = [sql`l.${sql.id(name)}`, sql`r.${sql.id(name)}`];
    return type === "json"
      ? sql`coalesce(${l}::text is not distinct from ${r}::text or ${l}::jsonb = ${r}::jsonb, false)`
      : sql`${l} is not distinct from ${r}`;
  });
  const { rows } = await sql<{ same: boolean }>`
    select not exists (
      select from public.${sql.id(table)} l
      full join ${schema.id}.${sql.id(table)} r on ${sql.join(keys.map((key) => sql`l.${sql.id(key)} = r.${sql.id(key)}`), sql` and `)}
      where not (${sql.join(equal, sql` and `)})
    ) as same
  `.execute(trx);
  return rows[0]?.same === true;
}

async function primaryKey(trx: Transaction<Database>, table: string): Promise<string[]> {
  const { rows } = await sql<{ column_name: string }>`
    select kcu.column_name
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu
      on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name
    where tc.table_schema = 'public' and tc.table_name = ${table} and tc.constraint_type = 'PRIMARY KEY'
    order by kcu.ordinal_position
  `.execute(trx);
  if (rows.length === 0) throw new Error(`Read model table ${table} has no primary key to name its rows by`);
  return rows.map((row) => row.column_name);
}
