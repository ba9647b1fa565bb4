import { checkpointLines } from "../audit/checkpoints.ts";
import type { Ledger } from "./connection.ts";
import { count, writeErr, writeOut } from "./output.ts";

/**
 * The checkpoints recorded at or after `since` as NDJSON on stdout, each with the heads it covers:
 * the file an operator ships out of the database's reach, for `ledger verify-export --checkpoints`.
 */
export async function exportCheckpoints({ store }: Ledger, since: Date | undefined): Promise<number> {
  let checkpoints = 0;
  for await (const line of checkpointLines(store, since)) {
    await writeOut(line);
    checkpoints += 1;
  }
  writeErr(`exported ${count(checkpoints, "checkpoint")}\n`);
  return 0;
}
