import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";

/** The open batches opened before `olderThan`, 100 at most, oldest first: their openers died or never heard the processor. */
export async function openSettlementsBefore(db: Kysely<Database>, olderThan: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("settlements")
    .select("settlement_id")
    .where("status", "=", "open")
    .where("opened_at", "<", olderThan)
    .orderBy("opened_at")
    .limit(100)
    .execute();
  return rows.map((row) => row.settlement_id);
}
