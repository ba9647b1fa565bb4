import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      stream_id text primary key,
      revision bigint not null
    )`.execute(db);

  // transaction_id lets readers stay below the oldest open writer: sequence values commit out
  // of order, so a reader that only tracked `position` could skip a slow writer's event.
  await sql`
    create table events (
      position bigint generated always as identity primary key,
      transaction_id xid8 not null default pg_current_xact_id(),
      event_id uuid not null unique,
      stream_id text not null,
      revision bigint not null,
      type text not null,
      data jsonb not null,
      metadata jsonb not null,
      recorded_at timestamptz not null default now(),
      unique (stream_id, revision)
    )`.execute(db);
  await sql`create index events_transaction_id_position on events (transaction_id, position)`.execute(db);

  await sql`
    create table projection_checkpoints (
      projection text primary key,
      checkpoint text,
      last_position bigint,
      last_recorded_at timestamptz,
      owner text,
      lease_expires_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);
}
