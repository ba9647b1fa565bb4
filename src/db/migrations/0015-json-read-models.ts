import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A transaction's view and a payment's folded state are written whole and read whole, never
  // queried inside on a hot path: as json (the text, checked) they cost the server no jsonb
  // parse on every write and no jsonb output on every history page.
  await sql`alter table transactions alter column view type json using view::json`.execute(db);
  await sql`alter table payments alter column state type json using state::json`.execute(db);
}
