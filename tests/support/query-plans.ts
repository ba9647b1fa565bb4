import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../../src/db/schema.ts";

/** A node of `explain (analyze, format json)`'s plan. */
type PlanNode = { "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** Every row a plan's nodes produced or filtered out, over all their loops. */
function rowsOf(node: PlanNode): number {
  const own = (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsOf(child), 0);
}

/** Runs `statement` under `explain analyze` (so it takes effect) and counts the rows its plan examined. */
export async function rowsExamined(db: Kysely<Database>, statement: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ "QUERY PLAN": [{ Plan: PlanNode }] }>`explain (analyze, format json) ${statement}`.execute(db);
  return rowsOf(rows[0]!["QUERY PLAN"][0].Plan);
}
