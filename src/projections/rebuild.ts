import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Checkpoint, EventStore, RecordedEvent } from "../eventstore/port.ts";
import { assertProjectionName, type Projection, readStreamsFor } from "./projection.ts";

export interface RebuildProgress {
  events: number;
  position: bigint | null;
  elapsedMs: number;
}

export interface RebuildOptions {
  db: Kysely<Database>;
  store: EventStore;
  projection: Projection;
  batchSize?: number;
  onProgress?: (progress: RebuildProgress) => void;
}

/**
 * Rebuilds a projection from the first event while the service keeps serving the old read
 * model: the log is replayed into empty copies of the projection's tables in a schema of their
 * own, which then replace the live tables in one transaction. The live runner carries on from
 * the rebuild's checkpoint. Returns the number of events replayed.
 */
export async function rebuildProjection(options: RebuildOptions): Promise<number> {
  const { db, store, projection, batchSize = 2_000, onProgress } = options;
  const started = performance.now();
  return withShadowTables(db, projection, "rebuild", async (schema) => {
    const pass = projection.rebuildPass?.();
    const replayed = await replayInto({
      db,
      store,
      projection,
      schema,
      from: notReplayed,
      batchSize,
      ...(pass && { apply: pass.apply }),
      onProgress: ({ events, last }) =>
        onProgress?.({ events, position: last?.position ?? null, elapsedMs: performance.now() - started }),
    });
    if (pass) await inSchema(db, schema, (trx) => pass.finish(trx));
    await db.transaction().execute((trx) => swapIn(trx, projection, schema, replayed));
    return replayed.events;
  });
}

/** A schema of shadow tables: its name, and the identifier to put in SQL. */
export type SchemaRef = { name: string; id: RawBuilder<unknown> };

/** How far a replay into shadow tables got. */
export interface Replayed {
  checkpoint: Checkpoint | null;
  events: number;
  last: RecordedEvent | undefined;
}

export const notReplayed: Replayed = { checkpoint: null, events: 0, last: undefined };

/**
 * Runs `work` with empty copies of the projection's tables in the schema `<purpose>_<name>`
 * (left over ones are replaced), and drops that schema afterwards.
 */
export async function withShadowTables<T>(
  db: Kysely<Database>,
  projection: Projection,
  purpose: "rebuild" | "verify",
  work: (schema: SchemaRef) => Promise<T>,
): Promise<T> {
  assertProjectionName(projection.name);
  const name = `${purpose}_${projection.name}`;
  const schema: SchemaRef = { name, id: sql.id(name) };
  await sql`drop schema if exists ${schema.id} cascade`.execute(db);
  await sql`create schema ${schema.id}`.execute(db);
  try {
    for (const table of projection.tables) {
      await sql`create table ${schema.id}.${sql.id(table)} (like public.${sql.id(table)} including all)`.execute(db);
      if (purpose === "verify") await dropLookupIndexes(db, schema, table);
    }
    return await work(schema);
  } finally {
    await sql`drop schema if exists ${schema.id} cascade`.execute(db);
  }
}

/**
 * A verify's copies are only written and compared whole: indexes that no write needs (all but the
 * unique ones, which the upserts' conflicts and the constraints rely on) would only slow the replay.
 */
async function dropLookupIndexes(db: Kysely<Database>, schema: SchemaRef, table: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select index_class.relname as name
    from pg_index
    join pg_class index_class on index_class.oid = pg_index.indexrelid
    join pg_class table_class on table_class.oid = pg_index.indrelid
    join pg_namespace on pg_namespace.oid = table_class.relnamespace
    where pg_namespace.nspname = ${schema.name} and table_class.relname = ${table} and not pg_index.indisunique
  `.execute(db);
  for (const { name } of rows) await sql`drop index ${schema.id}.${sql.id(name)}`.execute(db);
}

export interface ReplayOptions {
  db: Kysely<Database>;
  store: EventStore;
  projection: Projection;
  schema: SchemaRef;
  from: Replayed;
  batchSize: number;
  /** How each batch is applied: the projection's `apply` unless given (a rebuild's pass). */
  apply?: Projection["apply"];
  /** After every batch read. */
  onProgress?: (replayed: Replayed) => void;
}

/** Applies the log after `from` to the projection's tables in `schema`, up to the head. */
export async function replayInto(options: ReplayOptions): Promise<Replayed> {
  const { db, store, projection, schema, batchSize, apply = projection.apply, onProgress } = options;
  let { checkpoint, events, last } = options.from;
  const readAfter = (after: Checkpoint | null) => {
    const read = store.readAll({ after, batchSize, types: projection.eventTypes });
    // Awaited on the next turn; a failure of this batch's apply must not leave it unhandled.
    read.catch(() => {});
    return read;
  };
  let next = readAfter(checkpoint);
  for (;;) {
    const batch = await next;
    if (batch.checkpoint === checkpoint) return { checkpoint, events, last };
    // The log's next page is read while this one is applied: the read depends on no applied row.
    next = readAfter(batch.checkpoint);
    if (batch.events.length > 0) {
      await applyInto(db, store, projection, schema, batch.events, apply);
      events += batch.events.length;
      last = batch.events.at(-1);
    }
    checkpoint = batch.checkpoint;
    onProgress?.({ checkpoint, events, last });
  }
}

/** Applies events of the log, in order, to the projection's tables in `schema`. */
export async function applyInto(
  db: Kysely<Database>,
  store: EventStore,
  projection: Projection,
  schema: SchemaRef,
  events: readonly RecordedEvent[],
  apply: Projection["apply"] = projection.apply,
): Promise<void> {
  // What the projection reads to decide which streams it needs, it reads in the replay's tables.
  const streams = await readStreamsFor(projection, db.withSchema(schema.name), store, events);
  await inSchema(db, schema, (trx) => apply(trx, events, streams));
}

/**
 * Runs `work` in a transaction whose unqualified table names are the tables in `schema`. Its
 * commit does not wait for the WAL's flush: a crash can lose only shadow tables, which the next
 * rebuild or verify replaces, and the swap that publishes them commits durably, so after them.
 */
async function inSchema(db: Kysely<Database>, schema: SchemaRef, work: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local search_path to ${schema.id}, public`.execute(trx);
    await sql`set local synchronous_commit to off`.execute(trx);
    await work(trx);
  });
}

/**
 * Replaces the live tables with the rebuilt ones and moves the checkpoint. The checkpoint row is
 * locked before the tables, in the same order as a runner's batch, so the two never deadlock; the
 * runner's next batch then finds the checkpoint moved and resumes from the new one.
 */
async function swapIn(
  trx: Transaction<Database>,
  projection: Projection,
  schema: SchemaRef,
  { checkpoint, last }: Replayed,
): Promise<void> {
  await sql`
    insert into projection_checkpoints (projection, checkpoint, last_position, last_recorded_at)
    values (${projection.name}, ${checkpoint}, ${last?.position.toString() ?? null}::bigint, ${last?.recordedAt ?? null}::timestamptz)
    on conflict (projection) do update
      set checkpoint = excluded.checkpoint, last_position = excluded.last_position,
          last_recorded_at = excluded.last_recorded_at, updated_at = now()
  `.execute(trx);
  for (const table of projection.tables) {
    await sql`drop table public.${sql.id(table)}`.execute(trx);
    await sql`alter table ${schema.id}.${sql.id(table)} set schema public`.execute(trx);
  }
}
