import { type Kysely, sql } from "kysely";

/**
 * Notices between the processes that share a database (src/db/cross-process-wakes.ts): events
 * appended, and a projection's checkpoint moved. Each carries the writer's `application_name`
 * (its process's name), so a process can skip its own. Nobody listening costs a queue entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_events_appended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('ledger_appended', current_setting('application_name'));
      return null;
    end $$`.execute(db);
  await sql`create trigger events_appended after insert on events for each statement execute function notify_events_appended()`.execute(db);
  await sql`
    create function notify_projection_applied() returns trigger language plpgsql as $$
    begin
      perform pg_notify('ledger_applied', new.projection || E'\t' || current_setting('application_name'));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger projection_applied after update of checkpoint on projection_checkpoints
    for each row when (old.checkpoint is distinct from new.checkpoint) execute function notify_projection_applied()`.execute(db);
}
