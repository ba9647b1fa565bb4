import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import { principalOf } from "./auth.ts";
import { ApiProblem } from "./problems.ts";

declare module "fastify" {
  interface FastifyRequest {
    idempotency: { scope: string; key: string } | undefined;
  }
}

const keyFormat = /^[\x20-\x7e]{1,255}$/;
/** Response headers that are part of what a replay must give back. */
const replayedHeaders = ["content-type", "etag", "location"];

/**
 * Idempotency for every authenticated POST, as API.md says: the first response to a key is
 * stored durably and replayed; a different request under the same key is refused; a duplicate
 * that arrives while the first still runs gets 409. Records live in PostgreSQL, so this holds
 * across instances and restarts.
 */
export function registerIdempotency(app: FastifyInstance, db: Kysely<Database>): void {
  app.decorateRequest("idempotency", undefined);

  app.addHook("preHandler", async (request, reply) => {
    const key = request.headers["idempotency-key"];
    if (request.method !== "POST" || key === undefined || !request.routeOptions.config.access) return;
    if (typeof key !== "string" || !keyFormat.test(key)) {
      throw new ApiProblem("validation_error", "Idempotency-Key must be 1 to 255 printable characters.", {
        errors: [{ path: "Idempotency-Key", message: "must be 1 to 255 printable characters" }],
      });
    }
    const principal = principalOf(request);
    const scope = principal.role === "admin" ? "admin" : `client:${principal.clientId}`;
    const requestHash = hashRequest(request);
    const claimed = await db
      .insertInto("idempotency_records")
      .values({ scope, idempotency_key: key, request_hash: requestHash })
      .onConflict((conflict) => conflict.columns(["scope", "idempotency_key"]).doNothing())
      .returning("scope")
      .executeTakeFirst();
    if (claimed) {
      request.idempotency = { scope, key };
      return;
    }
    const existing = await db
      .selectFrom("idempotency_records")
      .selectAll()
      .where("scope", "=", scope)
      .where("idempotency_key", "=", key)
      .executeTakeFirstOrThrow();
    if (existing.request_hash !== requestHash) {
      throw new ApiProblem("idempotency_key_reused", "This Idempotency-Key was used with a different request.");
    }
    if (existing.status_code === null) {
      throw new ApiProblem(
        "idempotency_request_in_progress",
        "A request with this Idempotency-Key is still being processed; retry later.",
      );
    }
    return replay(reply, existing.status_code, existing.response_headers ?? {}, existing.response_body ?? "");
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    if (reply.statusCode >= 500 && reply.statusCode !== 502 && reply.statusCode !== 504) {
      // An unexpected failure: nothing to replay, so the caller may retry with the same key.
      await db
        .deleteFrom("idempotency_records")
        .where("scope", "=", claim.scope)
        .where("idempotency_key", "=", claim.key)
        .execute();
      return payload;
    }
    const headers = Object.fromEntries(
      replayedHeaders.flatMap((name) => {
        const value = reply.getHeader(name);
        return value === undefined ? [] : [[name, String(value)]];
      }),
    );
    await db
      .updateTable("idempotency_records")
      .set({
        status_code: reply.statusCode,
        response_headers: sql`${JSON.stringify(headers)}::jsonb`,
        response_body: typeof payload === "string" ? payload : "",
        completed_at: sql`now()`,
      })
      .where("scope", "=", claim.scope)
      .where("idempotency_key", "=", claim.key)
      .execute();
    return payload;
  });
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string) {
  return reply.code(status).headers(headers).header("idempotent-replayed", "true").send(body);
}

/** The same request means the same method, path and body, whatever the order of the body's keys. */
function hashRequest(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`)
    .digest("hex");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
