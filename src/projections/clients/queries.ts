import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { CurrencyLimit } from "../../domain/limits/limits.ts";
import { newestFirst, type TimeKey } from "../newest-first.ts";

/**
 * The API's reads of the clients read model (`clients-projection.ts` writes the clients and their
 * keys) and of when each key was last used. The lists are pages newest first, `limit + 1` rows.
 */

/** A client with its limits as last set. */
export interface ClientRow {
  clientId: string;
  name: string;
  limits: CurrencyLimit[];
  createdAt: Date;
}

export async function findClient(db: Kysely<Database>, clientId: string): Promise<ClientRow | undefined> {
  const row = await db
    .selectFrom("clients")
    .select(["client_id", "name", "created_at", "limits"])
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  return row && { clientId: row.client_id, name: row.name, limits: row.limits, createdAt: row.created_at };
}

export async function clientExists(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const row = await db.selectFrom("clients").select("client_id").where("client_id", "=", clientId).executeTakeFirst();
  return row !== undefined;
}

/** A page of every client, on (`created_at`, `client_id`). */
export function clientsNewestFirst(db: Kysely<Database>, after: TimeKey | undefined, limit: number) {
  const clients = db.selectFrom("clients").select(["client_id", "created_at"]);
  return newestFirst(clients, ["created_at", "client_id"], after, limit).execute();
}

/** A page of one client's keys, revoked ones included, each with when it was last used; on (`created_at`, `key_id`). */
export function apiKeysNewestFirst(db: Kysely<Database>, clientId: string, after: TimeKey | undefined, limit: number) {
  const keys = db
    .selectFrom("api_keys")
    .leftJoin("api_key_last_used", "api_key_last_used.key_id", "api_keys.key_id")
    .select(["api_keys.key_id", "prefix", "name", "created_at", "revoked_at", "last_used_at"])
    .where("client_id", "=", clientId);
  return newestFirst(keys, ["created_at", "api_keys.key_id"], after, limit).execute();
}
