import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import { acquireLease, advanceCheckpoint, readCheckpoint } from "./checkpoints.ts";
import { type Projection, readStreamsFor } from "./projection.ts";

const OWNER = "ledger-snapshot";
const LEASE_MS = 3_600_000;

/**
 * Applies to a copy of the database (a snapshot the service handed over) what its read models had
 * not applied yet when it was taken, batch by batch as the service's runner would: the copy then
 * stands where the service's read models stand once they catch up. The leases in a copy are the
 * service's, held by nobody there: they are taken over. Never for a live database.
 */
export async function catchUpSnapshot(db: Kysely<Database>, store: EventStore, projection: Projection, batchSize = 2_000): Promise<void> {
  await sql`update projection_checkpoints set owner = null, lease_expires_at = null where projection = ${projection.name} and owner is distinct from ${OWNER}`.execute(db);
  if (!(await acquireLease(db, projection.name, OWNER, LEASE_MS))) throw new Error(`the snapshot's ${projection.name} read model could not be caught up`);
  let checkpoint = (await readCheckpoint(db, projection.name)).checkpoint;
  for (;;) {
    const batch = await store.readAll({ after: checkpoint, batchSize, types: projection.eventTypes });
    if (batch.checkpoint === checkpoint) return;
    const streams = await readStreamsFor(projection, db, store, batch.events);
    const previous = checkpoint;
    await db.transaction().execute(async (trx) => {
      if (!(await advanceCheckpoint(trx, projection.name, OWNER, LEASE_MS, previous, batch))) {
        throw new Error(`the snapshot's ${projection.name} checkpoint moved while it was caught up`);
      }
      if (batch.events.length > 0) await projection.apply(trx, batch.events, streams);
    });
    checkpoint = batch.checkpoint;
  }
}
