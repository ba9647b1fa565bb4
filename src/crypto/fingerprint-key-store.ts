import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Secret } from "../domain/secret.ts";
import type { Logger } from "../logger.ts";
import {
  decodeKey,
  type FingerprintKeys,
  FingerprintKeyError,
  generateFingerprintKey,
  LEGACY_FINGERPRINT_KEY_ID,
  parseFingerprintKeys,
} from "./card-fingerprint.ts";
import type { SecretBox } from "./secrets.ts";
import { nextKeyId } from "./key-list.ts";

/**
 * Where the fingerprint keys come from: `CARD_FINGERPRINT_KEY` when given (the operator keeps
 * them), else keys generated here and kept in `card_fingerprint_keys` encrypted under the master
 * keys, never in plain text. A key of an earlier release, generated into `DATA_DIR` in plain text,
 * is taken in as key `1` and its file removed.
 */

/** The file earlier releases generated the key into. */
const LEGACY_KEY_FILE = "card-fingerprint-key";

const keyContext = (keyId: string) => `card-fingerprint-key/${keyId}`;

export interface FingerprintKeySource {
  configured: Secret<string> | undefined;
  db: Kysely<Database>;
  secrets: SecretBox;
  dataDir: string;
  logger: Logger;
}

export async function loadFingerprintKeys(source: FingerprintKeySource): Promise<FingerprintKeys> {
  if (source.configured !== undefined) return parseFingerprintKeys(source.configured.expose());
  const { db, secrets, logger } = source;
  if ((await storedKeys(db)).length === 0) {
    const legacy = await legacyKey(source.dataDir);
    await insertKey(db, secrets, LEGACY_FINGERPRINT_KEY_ID, legacy ?? generateFingerprintKey());
    if (!legacy) logger.warn({ secret: "card-fingerprint-key" }, "not configured: generated one, kept encrypted under the master keys");
  }
  await removeLegacyKeyFile(source.dataDir, logger);
  return openStoredKeys(db, secrets);
}

/** The generated keys, decrypted; the last made is the active one. */
export async function openStoredKeys(db: Kysely<Database>, secrets: SecretBox): Promise<FingerprintKeys> {
  const rows = await storedKeys(db);
  if (rows.length === 0) throw new FingerprintKeyError("no fingerprint key is left: make one with `ledger fingerprint-key rotate`");
  const keys = new Map(rows.map((row) => [row.key_id, decodeKey(secrets.decrypt(row.encrypted_key!, keyContext(row.key_id)), row.key_id)]));
  return { activeKeyId: rows.at(-1)!.key_id, keys };
}

/**
 * Starts a new generated key, which instances use from their next start; with `destroyPrevious`,
 * every older one is erased (its row stays, without the key, so its id is never reused). Returns
 * the new key's id and the ids destroyed.
 */
export async function rotateStoredKey(
  db: Kysely<Database>,
  secrets: SecretBox,
  { destroyPrevious }: { destroyPrevious: boolean },
): Promise<{ keyId: string; destroyed: string[] }> {
  return db.transaction().execute(async (trx) => {
    const all = await trx.selectFrom("card_fingerprint_keys").select("key_id").forUpdate().execute();
    const keyId = nextKeyId(all.map((row) => row.key_id));
    await insertKey(trx, secrets, keyId, generateFingerprintKey());
    if (!destroyPrevious) return { keyId, destroyed: [] };
    const destroyed = await trx
      .updateTable("card_fingerprint_keys")
      .set({ encrypted_key: null, destroyed_at: new Date() })
      .where("key_id", "<>", keyId)
      .where("encrypted_key", "is not", null)
      .returning("key_id")
      .execute();
    return { keyId, destroyed: destroyed.map((row) => row.key_id) };
  });
}

function storedKeys(db: Kysely<Database>) {
  return db
    .selectFrom("card_fingerprint_keys")
    .select(["key_id", "encrypted_key"])
    .where("encrypted_key", "is not", null)
    .orderBy("created_at")
    .orderBy("key_id")
    .execute();
}

async function insertKey(db: Kysely<Database>, secrets: SecretBox, keyId: string, key: Buffer): Promise<void> {
  await db
    .insertInto("card_fingerprint_keys")
    .values({ key_id: keyId, encrypted_key: secrets.encrypt(key.toString("base64"), keyContext(keyId)), created_at: new Date(), destroyed_at: null })
    // Two instances starting at once: the first one's key is the key.
    .onConflict((conflict) => conflict.column("key_id").doNothing())
    .execute();
  key.fill(0);
}

async function legacyKey(dataDir: string): Promise<Buffer | undefined> {
  if (dataDir.startsWith("memory://")) return undefined;
  try {
    return decodeKey((await readFile(path.resolve(dataDir, LEGACY_KEY_FILE), "utf8")).trim(), LEGACY_FINGERPRINT_KEY_ID);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Once the database holds the key, the plain copy beside the data goes. */
async function removeLegacyKeyFile(dataDir: string, logger: Logger): Promise<void> {
  if (dataDir.startsWith("memory://")) return;
  const file = path.resolve(dataDir, LEGACY_KEY_FILE);
  try {
    await rm(file);
    logger.warn({ file }, "the fingerprint key kept in plain text by an earlier release is now kept encrypted: its file is removed");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
