import { readLogPage } from "../audit/event-log.ts";
import type { Ledger } from "./connection.ts";
import { count, writeErr, writeOut } from "./output.ts";

const PAGE_SIZE = 500;

/**
 * The log after `cursor` as NDJSON on stdout, one event per line in global order, in the shape
 * and with the cursor of `GET /v1/events`. Ends with the cursor to resume from, on stderr.
 */
export async function exportLog({ store }: Ledger, cursor: string | null): Promise<number> {
  let after = cursor;
  let events = 0;
  for (;;) {
    const page = await readLogPage(store, after, PAGE_SIZE);
    if (page.events.length > 0) await writeOut(page.events.map((event) => `${JSON.stringify(event)}\n`).join(""));
    events += page.events.length;
    if (page.nextCursor === null) break;
    after = page.nextCursor;
  }
  writeErr(`exported ${count(events, "event")}${after === null ? "" : `; resume with --after ${after}`}\n`);
  return 0;
}
