import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { Secret } from "../domain/secret.ts";
import { generateApiKey, hashApiKey } from "./keys.ts";

/**
 * Which admin key the service accepts: the one of ADMIN_API_KEY (never stored), or the one whose
 * hash the database keeps (generated on the first start, replaced by `ledger admin-key rotate`),
 * which every request reads, so a rotation takes effect at once on every instance.
 */
export type AdminKey = { kind: "configured"; hash: string } | { kind: "stored"; /** Set only on the start that generated it: shown once, then forgotten. */ generated?: Secret<string> };

/** The admin key in use, generating and storing one on the first start without ADMIN_API_KEY. */
export async function resolveAdminKey(db: Kysely<Database>, configured: Secret<string> | undefined): Promise<AdminKey> {
  if (configured) return { kind: "configured", hash: hashApiKey(configured.expose()) };
  const stored = await db.selectFrom("admin_key").select("key_hash").executeTakeFirst();
  if (stored) return { kind: "stored" };

  const generated = generateApiKey("admin");
  const inserted = await db
    .insertInto("admin_key")
    .values({ key_hash: hashApiKey(generated) })
    .onConflict((conflict) => conflict.column("singleton").doNothing())
    .returning("key_hash")
    .executeTakeFirst();
  // Another instance generated one at the same moment: theirs stands.
  return inserted ? { kind: "stored", generated: new Secret(generated) } : { kind: "stored" };
}

/** Replaces the stored admin key by a new one, returned to be shown once: the old one stops working at once. */
export async function rotateAdminKey(db: Kysely<Database>): Promise<string> {
  const key = generateApiKey("admin");
  await db
    .insertInto("admin_key")
    .values({ key_hash: hashApiKey(key) })
    .onConflict((conflict) => conflict.column("singleton").doUpdateSet({ key_hash: hashApiKey(key), created_at: new Date() }))
    .execute();
  return key;
}

/** What the start log says of the admin key: which kind is in use and how to replace it, never the key. */
export function describeAdminKey(adminKey: AdminKey): { adminKey: string; replace: string } {
  if (adminKey.kind === "configured") {
    return { adminKey: "set by ADMIN_API_KEY", replace: "change ADMIN_API_KEY and restart every instance" };
  }
  return {
    adminKey: adminKey.generated ? "generated on this first start; only its hash is kept, in the database" : "generated on the first start; only its hash is kept, in the database",
    replace: "run `ledger admin-key rotate` (`npm run ledger -- admin-key rotate`, or `node dist/cli/ledger.js admin-key rotate` where built), or set ADMIN_API_KEY",
  };
}
