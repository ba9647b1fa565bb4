import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { SettlementView } from "../../domain/settlements/view.ts";
import { newestFirst, type TimeKey } from "../newest-first.ts";

/**
 * Reads of the settlement batches read model (`settlements-projection.ts` writes it): the API's,
 * the CLI's and the jobs'. Whose a batch is, is the caller's to check.
 */

/** A batch's view and whose it is. */
export function findSettlement(db: Kysely<Database>, settlementId: string) {
  return db.selectFrom("settlements").select(["client_id", "view"]).where("settlement_id", "=", settlementId).executeTakeFirst();
}

/** Whose a batch is, without its view. */
export function settlementOwner(db: Kysely<Database>, settlementId: string) {
  return db.selectFrom("settlements").select("client_id").where("settlement_id", "=", settlementId).executeTakeFirst();
}

/** A batch's status in its view, as the table keeps it (the projection writes `open` while it closes). */
const storedStatus = { closing: "open", matched: "matched", mismatched: "mismatched", failed: "failed" } as const;

/** What a list of batches filters on; `from` and `to` bound when each closed (or, while closing, opened). */
export interface SettlementFilter {
  clientId: string | undefined;
  processor: Processor | undefined;
  hostConfigurationId: string | undefined;
  status: SettlementView["status"] | undefined;
  from: Date | undefined;
  to: Date | undefined;
}

/** A page of the batches a filter selects, on (`opened_at`, `settlement_id`). */
export function settlementsNewestFirst(db: Kysely<Database>, filter: SettlementFilter, after: TimeKey | undefined, limit: number) {
  const { clientId, processor, hostConfigurationId, status, from, to } = filter;
  const closedOrOpened = sql<Date>`coalesce(closed_at, opened_at)`;
  const filtered = db
    .selectFrom("settlements")
    .select(["settlement_id", "opened_at", "view"])
    .$if(status !== undefined, (q) => q.where("status", "=", storedStatus[status!]))
    .$if(clientId !== undefined, (q) => q.where("client_id", "=", clientId!))
    .$if(processor !== undefined, (q) => q.where("processor", "=", processor!))
    .$if(hostConfigurationId !== undefined, (q) => q.where("host_configuration_id", "=", hostConfigurationId!))
    .$if(from !== undefined, (q) => q.where(closedOrOpened, ">=", from!))
    .$if(to !== undefined, (q) => q.where(closedOrOpened, "<=", to!));
  return newestFirst(filtered, ["opened_at", "settlement_id"], after, limit).execute();
}

/** Every batch opened from `from` (inclusive) to `to` (exclusive), oldest first. */
export function settlementsOpenedBetween(db: Kysely<Database>, from: Date, to: Date) {
  return db
    .selectFrom("settlements")
    .selectAll()
    .where("opened_at", ">=", from)
    .where("opened_at", "<", to)
    .orderBy("opened_at")
    .orderBy("settlement_id")
    .execute();
}

/** Of these batch ids, those the read model has. */
export async function existingSettlementIds(db: Kysely<Database>, settlementIds: string[]): Promise<string[]> {
  const rows = await db.selectFrom("settlements").select("settlement_id").where("settlement_id", "in", settlementIds).execute();
  return rows.map((row) => row.settlement_id);
}

/** How many closed batches disagree with their processor's totals. */
export async function countMismatchedSettlements(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("settlements")
    .select((select) => select.fn.countAll<string>().as("count"))
    .where("status", "=", "mismatched")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

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
