import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_endpoints add column disabled_reason text`.execute(db);

  // Since when every attempt to an endpoint has failed (the dispatcher's clock); no row once one
  // is delivered. Not a projection table: it is written by the dispatcher, from attempts.
  await sql`create table webhook_endpoint_failures (
    endpoint_id uuid primary key,
    failing_since timestamptz not null
  )`.execute(db);

  // The retention purge's look: finished deliveries, the longest finished first.
  await sql`create index webhook_deliveries_finished on webhook_deliveries (updated_at) where status <> 'pending'`.execute(db);

  // The highest log position of a purged delivery: a replay or rebuild of the webhooks projection
  // queues nothing for an event at or below it, so a purged delivery is never sent again.
  await sql`create table webhook_outbox_purged (
    only_row boolean primary key default true check (only_row),
    through_position bigint not null
  )`.execute(db);
}
