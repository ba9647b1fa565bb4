import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The endpoints as the webhooks projection folds them (secrets encrypted, as in their events).
  await sql`create table webhook_endpoints (
    endpoint_id uuid primary key,
    client_id uuid not null,
    url text not null,
    events jsonb not null,
    description text,
    enabled boolean not null,
    deleted boolean not null,
    secret text not null,
    previous_secret text,
    previous_secret_expires_at timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    revision bigint not null
  )`.execute(db);
  await sql`create index webhook_endpoints_client on webhook_endpoints (client_id, created_at, endpoint_id)`.execute(db);

  // The outbox: one row per message and endpoint, written by the projection with its checkpoint
  // (so nothing recorded is lost), then moved on by the dispatcher. Not a projection table: a
  // rebuild finds the rows it would write already there and sends nothing again.
  await sql`create table webhook_deliveries (
    delivery_id uuid primary key,
    endpoint_id uuid not null,
    client_id uuid not null,
    message_id uuid not null,
    event_type text not null,
    subject_id uuid not null,
    position bigint not null,
    ordinal int not null,
    payload text not null,
    status text not null,
    attempts int not null default 0,
    round_start int not null default 0,
    redeliveries int not null default 0,
    next_attempt_at timestamptz not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  // The dispatcher's look: per endpoint, its due rows in order.
  await sql`create index webhook_deliveries_due on webhook_deliveries (endpoint_id, next_attempt_at, position, ordinal)
    where status = 'pending'`.execute(db);
  // What waits for a retry: read back when a dispatcher takes the lease.
  await sql`create index webhook_deliveries_retrying on webhook_deliveries (endpoint_id) where status = 'pending' and attempts > 0`.execute(db);

  await sql`create table webhook_attempts (
    attempt_id uuid primary key,
    delivery_id uuid not null,
    endpoint_id uuid not null,
    attempt int not null,
    status text not null,
    response_status int,
    duration_ms int not null,
    error text,
    next_attempt_at timestamptz,
    created_at timestamptz not null
  )`.execute(db);
  await sql`create index webhook_attempts_endpoint on webhook_attempts (endpoint_id, created_at desc, attempt_id desc)`.execute(db);
  await sql`create index webhook_attempts_delivery on webhook_attempts (delivery_id)`.execute(db);
}
