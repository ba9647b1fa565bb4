import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether the configuration is its client's default for its processor (DefaultHostConfigurationChosen.v1).
  // Nothing to backfill: no default was chosen before this column.
  await sql`alter table host_configurations add column is_default boolean not null default false`.execute(db);
}
