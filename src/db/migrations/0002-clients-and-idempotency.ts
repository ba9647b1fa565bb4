import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Read models of the clients projection; `revision` is the client stream's revision they reflect.
  await sql`
    create table clients (
      client_id uuid primary key,
      name text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      revision bigint not null
    )`.execute(db);
  await sql`
    create table api_keys (
      key_id uuid primary key,
      client_id uuid not null,
      key_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_keys_client_id on api_keys (client_id)`.execute(db);

  // The hash of the admin key generated on a first start without ADMIN_API_KEY.
  await sql`
    create table admin_key (
      singleton boolean primary key default true check (singleton),
      key_hash text not null,
      created_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table idempotency_records (
      scope text not null,
      idempotency_key text not null,
      request_hash text not null,
      status_code integer,
      response_body text,
      response_headers jsonb,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      primary key (scope, idempotency_key)
    )`.execute(db);
}
