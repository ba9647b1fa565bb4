import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The host-configurations projection: the API view of each configuration's latest version.
  await sql`
    create table host_configurations (
      host_configuration_id uuid primary key,
      processor text not null,
      client_id uuid not null,
      enabled boolean not null,
      version integer not null,
      view jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`
    create index host_configurations_client_processor
      on host_configurations (client_id, processor, host_configuration_id desc)`.execute(db);
  await sql`create index host_configurations_processor on host_configurations (processor, host_configuration_id desc)`.execute(
    db,
  );
}
