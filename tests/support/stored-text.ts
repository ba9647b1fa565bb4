import { type Kysely, sql } from "kysely";
import type { Database } from "../../src/db/schema.ts";

/** Every row of every table of the service's schema, as text: what a secret must never be found in. */
export async function everythingStored(db: Kysely<Database>): Promise<string> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
  let everything = "";
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(db);
    everything += rows.rows.map((r) => r.row).join("\n");
  }
  return everything;
}
