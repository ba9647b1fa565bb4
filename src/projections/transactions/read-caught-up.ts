import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";
import { OverloadedError } from "../../overload.ts";
import { waitUntilApplied } from "../lag.ts";
import { transactionsProjection } from "./transactions-projection.ts";

/** How long a miss waits for the transactions read model to apply what the log holds. */
const CATCH_UP_WAIT_MS = 5_000;

export interface CaughtUpContext {
  db: Kysely<Database>;
  store: EventStore;
}

/**
 * A read of the transactions read model that a lagging read model cannot answer wrongly: on a
 * miss it reads again once the read model has applied every transaction event the log held when
 * asked. A transaction recorded before the request, by any instance or before a restart, is thus
 * always found; only one that does not exist is missed. The read model's own instance's writes are
 * awaited before (read-your-writes); this is for everyone else's.
 */
export async function readCaughtUp<T>({ db, store }: CaughtUpContext, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const found = await read();
  if (found !== undefined) return found;
  if (!(await waitUntilApplied(db, store, transactionsProjection, CATCH_UP_WAIT_MS))) {
    throw new OverloadedError(`The transactions read model is more than ${CATCH_UP_WAIT_MS / 1000} s behind the log; whether the transaction exists is not known yet.`);
  }
  return read();
}
