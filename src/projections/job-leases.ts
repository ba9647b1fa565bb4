import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";

/**
 * The operator's reads of the leased background jobs, whose rows share `projection_checkpoints`
 * with the projections (`checkpoints.ts` takes and renews the leases), named `job:<name>`.
 */

const JOB_PREFIX = "job:";

/** Each job that ever took its lease: whether an instance holds it now, and when it was last taken. */
export async function listJobLeases(db: Kysely<Database>) {
  const rows = await db
    .selectFrom("projection_checkpoints")
    .select([
      "projection",
      "updated_at",
      "lease_expires_at",
      sql<boolean>`owner is not null and lease_expires_at > now()`.as("active"),
    ])
    .where("projection", "like", `${JOB_PREFIX}%`)
    .orderBy("projection")
    .execute();
  return rows.map((row) => ({
    name: row.projection.slice(JOB_PREFIX.length),
    active: row.active,
    lastSeenAt: row.updated_at,
    leaseExpiresAt: row.lease_expires_at,
  }));
}

/** What the job under this lease recorded of its last pass that did anything, as stored (json); null until it has. */
export async function readLastPass(db: Kysely<Database>, lease: string): Promise<unknown> {
  const row = await db.selectFrom("projection_checkpoints").select("last_pass").where("projection", "=", lease).executeTakeFirst();
  return row?.last_pass ?? null;
}
