import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Kysely, sql } from "kysely";
import type { AdminKey } from "../auth/admin-key.ts";
import { batchWhileBusy } from "../batching/batch-while-busy.ts";
import { hashApiKey, sameHash } from "../auth/keys.ts";
import type { KeyUseRecorder } from "../auth/last-use.ts";
import type { Database } from "../db/schema.ts";
import { withArticle } from "../domain/english.ts";
import { ApiProblem } from "./problems.ts";

export type Principal = { role: "admin" } | { role: "client"; clientId: string; keyId: string };

/** Who may call a route: set on every /v1 route as `config.access`. */
export type Access = "admin" | "client" | "any";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | undefined;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}

const bearer = /^Bearer ([\x21-\x7e]{16,512})$/;

/**
 * Authenticates every route of the scope, each of which must declare `config.access`, then checks
 * the role. Client keys are looked up on every request, so a revoked key stops working at once on
 * every instance. Each client key's use is noted with `recordUse`.
 */
export function registerAuthentication(app: FastifyInstance, db: Kysely<Database>, adminKey: AdminKey, recordUse: KeyUseRecorder): void {
  app.decorateRequest("principal", undefined);
  // Fail closed: a route added to this scope without saying who may call it would otherwise
  // answer anyone.
  app.addHook("onRoute", (route) => {
    if (!route.config?.access) throw new Error(`Route ${route.method} ${route.url} declares no config.access`);
  });
  const keyHolders = keyHolderLookup(db);
  app.addHook("onRequest", async (request) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    const principal = await authenticate(request, keyHolders, adminKey);
    request.principal = principal;
    if (principal.role === "client") recordUse(principal.keyId);
    if (access !== "any" && principal.role !== access) {
      throw new ApiProblem("forbidden", `This operation needs ${withArticle(access)} key.`);
    }
  });
}

async function authenticate(request: FastifyRequest, keyHolders: KeyHolderLookup, adminKey: AdminKey): Promise<Principal> {
  const key = bearer.exec(request.headers.authorization ?? "")?.[1];
  if (!key) throw new ApiProblem("invalid_credentials", "Send an API key as `Authorization: Bearer <key>`.");
  const hash = hashApiKey(key);
  if (adminKey.kind === "configured" && sameHash(hash, adminKey.hash)) return { role: "admin" };
  const holder = await keyHolders(hash);
  // A stored admin key counts only while ADMIN_API_KEY does not replace it.
  if (holder?.client_id === null && adminKey.kind === "stored") return { role: "admin" };
  if (!holder?.client_id || !holder.key_id) throw new ApiProblem("invalid_credentials", "The API key is unknown or revoked.");
  return { role: "client", clientId: holder.client_id, keyId: holder.key_id };
}

/**
 * Who holds a key hash: the client and key id of an unrevoked client key, or no client for the
 * stored admin key. Lookups that arrive while one is in flight are made together in one query:
 * every request still reads the key's current row, so a revoked or rotated key stops at once.
 */
function keyHolderLookup(db: Kysely<Database>) {
  return batchWhileBusy(async (hashes: string[]) => {
    const rows = await db
      .selectFrom("admin_key")
      .select(["key_hash", sql<string | null>`null`.as("client_id"), sql<string | null>`null`.as("key_id")])
      .where("key_hash", "in", hashes)
      .unionAll(
        db
          .selectFrom("api_keys")
          .select(["key_hash", "client_id", "key_id"])
          .where("key_hash", "in", hashes)
          .where("revoked_at", "is", null),
      )
      .execute();
    const byHash = new Map(rows.map((row) => [row.key_hash, row]));
    return hashes.map((hash) => byHash.get(hash));
  });
}
type KeyHolderLookup = ReturnType<typeof keyHolderLookup>;

/** The authenticated caller of a route that declares `config.access`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`Route ${request.routeOptions.url} declares no access`);
  return request.principal;
}

/** A client key's own client; none for admin keys, which see every client. */
export function ownClientOf(principal: Principal): string | undefined {
  return principal.role === "client" ? principal.clientId : undefined;
}

/** The client a request may see: its own for client keys; none is forbidden for admins. */
export function canSeeClient(principal: Principal, clientId: string): boolean {
  return principal.role === "admin" || principal.clientId === clientId;
}
