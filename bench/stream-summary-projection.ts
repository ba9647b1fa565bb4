import { type Kysely, sql } from "kysely";
import type { Database } from "../src/db/schema.ts";
import type { Projection } from "../src/projections/projection.ts";

/** Creates the projection's table in public (a rebuild copies its shape). */
export async function createStreamSummaryTable(db: Kysely<Database>): Promise<void> {
  await sql`create table if not exists stream_summaries (
    stream_id text primary key,
    event_count bigint not null,
    last_type text not null,
    last_position bigint not null,
    updated_at timestamptz not null)`.execute(db);
}

/**
 * One summary row per stream, written set-based: one upsert per batch, keeping each stream's
 * newest event of the batch. Idempotent: the count is the last revision + 1, and a row only moves
 * forward to a later position.
 */
export const streamSummaryProjection: Projection = {
  name: "stream_summaries",
  tables: ["stream_summaries"],
  async apply(trx, events) {
    const values = JSON.stringify(
      events.map((e) => ({
        stream: e.streamId,
        type: e.type,
        revision: e.revision.toString(),
        position: e.position.toString(),
        at: e.recordedAt.toISOString(),
      })),
    );
    await sql`
      insert into stream_summaries as s (stream_id, event_count, last_type, last_position, updated_at)
      select distinct on (v->>'stream')
             v->>'stream', (v->>'revision')::bigint + 1, v->>'type', (v->>'position')::bigint, (v->>'at')::timestamptz
      from jsonb_array_elements(${values}::jsonb) v
      order by v->>'stream', (v->>'position')::bigint desc
      on conflict (stream_id) do update
        set event_count = excluded.event_count, last_type = excluded.last_type,
            last_position = excluded.last_position, updated_at = excluded.updated_at
        where excluded.last_position > s.last_position`.execute(trx);
  },
};
