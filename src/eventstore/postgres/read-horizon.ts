import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";

/**
 * How far the global log may be read now: below every transaction id that may still commit
 * events, which is the oldest transaction of this database still open or, with none, the next id
 * to be given out. Transactions of other databases on the same server are left out: PostgreSQL's
 * own snapshot xmin counts them, so a long write elsewhere on the server held every reader back.
 *
 * Read in a statement of its own, before the events: a transaction still open when this
 * statement took its snapshot, but gone from pg_stat_activity when it was read, had committed (or
 * rolled back) before the events' statement takes its snapshot, so that statement sees its
 * events. Readers must therefore read in READ COMMITTED, each statement with its own snapshot.
 */
async function readHorizon(db: Kysely<Database>): Promise<string> {
  // backend_xid is 32 bits: the full id is the one at most 2^32 below the next id. The activity
  // function is read directly: the pg_stat_activity view joins every backend to its database
  // and role by name, which cost three times as much (pgbench: 1.25 against 0.35 ms).
  const { rows } = await sql<{ horizon: string }>`
    with next as (select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as xid)
    select least(next.xid, (
      select min(next.xid - (next.xid - activity.backend_xid::text::bigint) % 4294967296)
      from pg_stat_get_activity(null) as activity
      where activity.datid = (select oid from pg_database where datname = current_database())
        and activity.backend_xid is not null
    ))::text as horizon
    from next
  `.execute(db);
  const horizon = rows[0]?.horizon;
  if (horizon === undefined) throw new Error("the read horizon query returned no row");
  return horizon;
}

/**
 * `readHorizon` for a store whose readers often ask at once (every projection wakes on the same
 * append): callers that arrive while a read is running share its answer. That read's statement
 * ran before each of their own statements, which is all the horizon's rule asks.
 */
export function sharedReadHorizon(db: Kysely<Database>): () => Promise<string> {
  let running: Promise<string> | undefined;
  return () =>
    (running ??= readHorizon(db).finally(() => {
      running = undefined;
    }));
}
