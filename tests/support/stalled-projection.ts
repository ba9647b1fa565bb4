import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/db/schema.ts";

const STALLED_OWNER = "stalled-instance";

/**
 * Runs `body` while a projection stands still on every instance: its lease belongs to an instance
 * that never applies anything (as one stuck in a pause would), so no runner may commit a batch.
 * Then hands the lease back and lets the runners catch up.
 */
export async function whileProjectionStalled(db: Kysely<Database>, projection: string, body: () => Promise<void>) {
  await sql`
    insert into projection_checkpoints (projection, owner, lease_expires_at)
    values (${projection}, ${STALLED_OWNER}, now() + interval '1 hour')
    on conflict (projection) do update set owner = excluded.owner, lease_expires_at = excluded.lease_expires_at
  `.execute(db);
  try {
    await body();
  } finally {
    await sql`
      update projection_checkpoints set owner = null, lease_expires_at = null
      where projection = ${projection} and owner = ${STALLED_OWNER}
    `.execute(db);
  }
}
