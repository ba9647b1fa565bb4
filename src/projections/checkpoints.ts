import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Checkpoint, ReadAllResult } from "../eventstore/port.ts";

export interface StoredCheckpoint {
  checkpoint: Checkpoint | null;
  lastPosition: bigint | null;
  lastRecordedAt: Date | null;
}

/**
 * Takes the projection's lease when it is free, expired, or already ours. Returns false while
 * another owner holds it. The database clock decides expiry, so processes need not agree on time.
 */
export async function acquireLease(db: Kysely<Database>, projection: string, owner: string, leaseMs: number) {
  const { rows } = await sql<{ projection: string }>`
    insert into projection_checkpoints (projection, owner, lease_expires_at)
    values (${projection}, ${owner}, now() + ${leaseMs} * interval '1 millisecond')
    on conflict (projection) do update
      set owner = excluded.owner, lease_expires_at = excluded.lease_expires_at, updated_at = now()
      where projection_checkpoints.owner is null
         or projection_checkpoints.owner = excluded.owner
         or projection_checkpoints.lease_expires_at < now()
    returning projection
  `.execute(db);
  return rows.length === 1;
}

/** Extends our lease; false when it was lost to another owner. */
export async function renewLease(db: Kysely<Database>, projection: string, owner: string, leaseMs: number) {
  const result = await db
    .updateTable("projection_checkpoints")
    .set({ lease_expires_at: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where("projection", "=", projection)
    .where("owner", "=", owner)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function releaseLease(db: Kysely<Database>, projection: string, owner: string): Promise<void> {
  await db
    .updateTable("projection_checkpoints")
    .set({ owner: null, lease_expires_at: null })
    .where("projection", "=", projection)
    .where("owner", "=", owner)
    .execute();
}

export async function readCheckpoint(db: Kysely<Database>, projection: string): Promise<StoredCheckpoint> {
  const row = await db
    .selectFrom("projection_checkpoints")
    .select(["checkpoint", sql<string | null>`last_position::text`.as("last_position"), "last_recorded_at"])
    .where("projection", "=", projection)
    .executeTakeFirst();
  return {
    checkpoint: row?.checkpoint ?? null,
    lastPosition: row?.last_position ? BigInt(row.last_position) : null,
    lastRecordedAt: row?.last_recorded_at ?? null,
  };
}

/**
 * Moves the checkpoint from `previous` to the batch's, renewing the lease, as the first write of
 * the batch's transaction. Returns false, changing nothing, when the lease was lost or the
 * checkpoint moved under us (a rebuild swapped the read model in): the caller must roll back.
 */
export async function advanceCheckpoint(
  trx: Transaction<Database>,
  projection: string,
  owner: string,
  leaseMs: number,
  previous: Checkpoint | null,
  batch: ReadAllResult,
): Promise<boolean> {
  const last = batch.events.at(-1);
  const result = await trx
    .updateTable("projection_checkpoints")
    .set({
      checkpoint: batch.checkpoint,
      ...(last && { last_position: last.position.toString(), last_recorded_at: last.recordedAt }),
      lease_expires_at: sql`now() + ${leaseMs} * interval '1 millisecond'`,
      updated_at: sql`now()`,
    })
    .where("projection", "=", projection)
    .where("owner", "=", owner)
    .where(sql<boolean>`checkpoint is not distinct from ${previous}`)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
