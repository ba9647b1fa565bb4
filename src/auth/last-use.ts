import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";

/** A busy key costs one write a minute per instance, not one a request. */
const WRITE_AT_MOST_EVERY_MS = 60_000;

/** Notes that a client key authenticated a request; never waits for, nor fails on, the write. */
export type KeyUseRecorder = (keyId: string) => void;

/**
 * Records when each client key was last used, in api_key_last_used. Which key was written when is
 * remembered by this recorder, one per service instance; instances each write at most once a
 * minute per key, and a time never moves back.
 */
export function keyUseRecorder({ db, now, logger }: { db: Kysely<Database>; now: () => Date; logger: Logger }): KeyUseRecorder {
  const lastWritten = new Map<string, number>();
  return (keyId) => {
    const at = now();
    const previous = lastWritten.get(keyId);
    if (previous !== undefined && at.getTime() - previous < WRITE_AT_MOST_EVERY_MS) return;
    lastWritten.set(keyId, at.getTime());
    db.insertInto("api_key_last_used")
      .values({ key_id: keyId, last_used_at: at })
      .onConflict((conflict) =>
        conflict.column("key_id").doUpdateSet({ last_used_at: sql`greatest(api_key_last_used.last_used_at, excluded.last_used_at)` }),
      )
      .execute()
      .catch((error: unknown) => {
        // The key's next request tries again.
        if (lastWritten.get(keyId) === at.getTime()) lastWritten.delete(keyId);
        logger.warn({ err: error, keyId }, "Could not record an API key's last use");
      });
  };
}
