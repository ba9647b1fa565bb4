import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { generateApiKey, hashApiKey } from "./keys.ts";

export interface AdminKey {
  hash: string;
  /** Set only on the start that generated the key: to be shown once, then forgotten. */
  generated?: string;
}

/**
 * The admin key's hash: from ADMIN_API_KEY when configured (never stored), otherwise the one
 * generated on the first start, whose hash the database keeps for every later start.
 */
export async function resolveAdminKey(db: Kysely<Database>, configured: string | undefined): Promise<AdminKey> {
  if (configured) return { hash: hashApiKey(configured) };
  const stored = await db.selectFrom("admin_key").select("key_hash").executeTakeFirst();
  if (stored) return { hash: stored.key_hash };

  const generated = generateApiKey("admin");
  const inserted = await db
    .insertInto("admin_key")
    .values({ key_hash: hashApiKey(generated) })
    .onConflict((conflict) => conflict.column("singleton").doNothing())
    .returning("key_hash")
    .executeTakeFirst();
  if (inserted) return { hash: inserted.key_hash, generated };
  // Another instance generated one at the same moment: theirs stands.
  const winner = await db.selectFrom("admin_key").select("key_hash").executeTakeFirstOrThrow();
  return { hash: winner.key_hash };
}
