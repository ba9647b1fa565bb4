/** A node of `explain (analyze, format json)`'s plan. */
export type PlanNode = { "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** Every row a plan's nodes produced or filtered out, over all their loops: what the statement examined. */
export function rowsExamined(node: PlanNode): number {
  const own = (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsExamined(child), 0);
}
