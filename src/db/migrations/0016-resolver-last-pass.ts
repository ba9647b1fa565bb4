import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // What a leased job's most recent pass did, written by the lease holder: the pending resolver's
  // summary of results, shown to operators.
  await sql`alter table projection_checkpoints add column last_pass json`.execute(db);
}
