import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";

/** A stream whose recorded head revision differs from its last stored event; null where one is missing. */
export interface HeadMismatch {
  streamId: string;
  head: bigint | null;
  lastStored: bigint | null;
}

/**
 * Streams whose row in `streams` (moved by every append, in the append's transaction) does not
 * end where their stored events end: events deleted from the end of a stream (or all of them),
 * events stored past the head, or a stream row deleted. The hash chains cannot see a deleted tail.
 */
export async function findHeadMismatches(db: Kysely<Database>): Promise<HeadMismatch[]> {
  const { rows } = await sql<{ stream_id: string; head: string | null; last_stored: string | null }>`
    with stored as (select stream_id, max(revision) as last_stored from events group by stream_id)
    select stream_id, streams.revision::text as head, stored.last_stored::text as last_stored
    from streams full join stored using (stream_id)
    where streams.revision is distinct from stored.last_stored
    order by stream_id
  `.execute(db);
  const toBigInt = (value: string | null) => (value === null ? null : BigInt(value));
  return rows.map((row) => ({ streamId: row.stream_id, head: toBigInt(row.head), lastStored: toBigInt(row.last_stored) }));
}
