import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Checkpoint, EventStore, RecordedEvent } from "../eventstore/port.ts";
import { assertProjectionName, type Projection } from "./projection.ts";

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
  assertProjectionName(projection.name);
  const schema = sql.id(`rebuild_${projection.name}`);
  const started = performance.now();
  let events = 0;
  let last: RecordedEvent | undefined;

  await sql`drop schema if exists ${schema} cascade`.execute(db);
  await sql`create schema ${schema}`.execute(db);
  for (const table of projection.tables) {
    await sql`create table ${schema}.${sql.id(table)} (like public.${sql.id(table)} including all)`.execute(db);
  }
  try {
    let checkpoint: Checkpoint | null = null;
    for (;;) {
      const batch = await store.readAll({ after: checkpoint, batchSize, types: projection.eventTypes });
      if (batch.checkpoint === checkpoint) break;
      if (batch.events.length > 0) {
        await db.transaction().execute(async (trx) => {
          await sql`set local search_path to ${schema}, public`.execute(trx);
          await projection.apply(trx, batch.events);
        });
        events += batch.events.length;
        last = batch.events.at(-1);
      }
      checkpoint = batch.checkpoint;
      onProgress?.({ events, position: last?.position ?? null, elapsedMs: performance.now() - started });
    }
    await db.transaction().execute((trx) => swapIn(trx, projection, schema, checkpoint, last));
  } finally {
    await sql`drop schema if exists ${schema} cascade`.execute(db);
  }
  return events;
}

/**
 * Replaces the live tables with the rebuilt ones and moves the checkpoint. The checkpoint row is
 * locked before the tables, in the same order as a runner's batch, so the two never deadlock; the
 * runner's next batch then finds the checkpoint moved and resumes from the new one.
 */
async function swapIn(
  trx: Transaction<Database>,
  projection: Projection,
  schema: ReturnType<typeof sql.id>,
  checkpoint: Checkpoint | null,
  last: RecordedEvent | undefined,
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
    await sql`alter table ${schema}.${sql.id(table)} set schema public`.execute(trx);
  }
}
