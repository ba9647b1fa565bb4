import { randomUUID } from "node:crypto";
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ExpressionBuilder, type Kysely, sql, type UpdateObject } from "kysely";
import type { BindIdempotencyKey } from "../commands/payments/dependencies.ts";
import type { Database } from "../db/schema.ts";
import type { TransactionView } from "../domain/payments/index.ts";
import { newId } from "../ids.ts";
import { idempotencyRecordWrite } from "../retry/policies.ts";
import { retry } from "../retry/retry.ts";
import { principalOf } from "./auth.ts";
import { type IdempotencyRecords, idempotencyRecords, isRetained } from "./idempotency-records.ts";
import { ApiProblem } from "./problems.ts";
import type { RequestHasher } from "./request-hash.ts";
import type { Tracer } from "@opentelemetry/api";
import { inSpan } from "../telemetry/spans.ts";

/** The transaction an Idempotency-Key belongs to, once its intent is (about to be) recorded. */
export interface KeyBinding {
  transactionId: string;
  paymentId: string;
}

/**
 * What a request holds of its Idempotency-Key. `token`: the claim is this request's, so its answer
 * is stored; none when the request only answers with the transaction the key is bound to.
 */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  token: string | undefined;
  bound: KeyBinding | undefined;
  /**
   * A route that starts a payment: the id its transaction (and payment) gets, made when the key
   * was claimed and written with the claim, so no separate binding precedes the intent.
   */
  newTransactionId: string | undefined;
  /** Whether the request went on to record the intent of `newTransactionId` (the binding was reached). */
  newTransactionBound: boolean;
  /**
   * A route that creates a resource (`createsResource`): its id, made when the key was first
   * claimed and kept by every request that takes the claim over, so a retry after a request that
   * died makes the same resource, never a second one.
   */
  resourceId: string | undefined;
  /**
   * The key is bound but has no stored answer: its request may still run, or may have answered
   * with a transaction whose outcome the log holds (see `answeringWithTransaction`).
   */
  unanswered: boolean;
  /** The request answers with a transaction whose outcome is recorded: the log keeps that answer. */
  answeredByLog: boolean;
  /** The service's idempotency records, where the claim is bound. */
  records: IdempotencyRecords;
}

declare module "fastify" {
  interface FastifyRequest {
    idempotency: IdempotencyClaim | undefined;
  }
  interface FastifyContextConfig {
    /** Top-level response fields that hold a secret shown once: a replay answers them `null`. */
    secretResponseFields?: readonly string[];
    /**
     * The answer's `card.fingerprint` is not written down: it is kept only under its payment
     * method's own key, and a record outlives the method's deletion. A replay answers without it.
     */
    forgetsCardFingerprint?: boolean;
    /** The route starts a new payment: its key is claimed for a transaction id made then (IdempotencyClaim). */
    startsPayment?: boolean;
    /** The route creates a resource: its key is claimed for the resource's id, made then (`claimedResourceId`). */
    createsResource?: boolean;
  }
}

export interface IdempotencyOptions {
  db: Kysely<Database>;
  /** What a record keeps of its request, to tell another request under the same key. */
  requestHasher: RequestHasher;
  /** How long a claim whose request never answered (its instance died) blocks its key. */
  inProgressTimeoutMs: number;
  /** How long a key is remembered after its first use; then the same key starts a new request. */
  retentionMs: number;
  /** Each claim is a span: how long the key's row took, and what the claim found. */
  tracer: Tracer;
}

const keyFormat = /^[\x20-\x7e]{1,255}$/;
/** Marks an answer given again for a key that already had one (also what the metrics count replays by). */
export const REPLAYED_HEADER = "idempotent-replayed";
/** Response headers that are part of what a replay must give back. */
const replayedHeaders = ["content-type", "etag", "location"];
/**
 * Answers that carry a recorded transaction (or settlement batch: 202 while it closes): a retry
 * answers it as it stands.
 */
const answersWithTransaction = new Set([201, 202, 402, 502, 504]);

/**
 * Idempotency for every authenticated POST, as API.md says: the first response to a key is
 * stored durably and replayed; a different request under the same key is refused; a duplicate
 * that arrives while the first still runs gets 409. Once a transaction's intent is recorded the
 * key belongs to that transaction, and a retry answers with it as it stands. Records live in
 * PostgreSQL, so this holds across instances and restarts.
 */
export function registerIdempotency(
  app: FastifyInstance,
  { db, requestHasher, inProgressTimeoutMs, retentionMs, tracer }: IdempotencyOptions,
): void {
  app.decorateRequest("idempotency", undefined);
  const records = idempotencyRecords(db);
  const unclaimed = (scope: string, key: string): IdempotencyClaim => ({
    scope,
    key,
    token: undefined,
    bound: undefined,
    newTransactionId: undefined,
    newTransactionBound: false,
    resourceId: undefined,
    unanswered: false,
    answeredByLog: false,
    records,
  });
  const lockedUntil = sql<Date>`now() + ${inProgressTimeoutMs} * interval '1 millisecond'`;

  // What the request hash reads: the body as sent, before validation turns card numbers into secrets.
  const sentBodies = new WeakMap<FastifyRequest, unknown>();
  app.addHook("preValidation", async (request) => {
    if (request.method === "POST" && request.headers["idempotency-key"] !== undefined) sentBodies.set(request, request.body);
  });

  const claimKey = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers["idempotency-key"];
    if (request.method !== "POST" || key === undefined || !request.routeOptions.config.access) return;
    if (typeof key !== "string" || !keyFormat.test(key)) {
      throw new ApiProblem("validation_error", "Idempotency-Key must be 1 to 255 printable characters.", {
        errors: [{ path: "Idempotency-Key", message: "must be 1 to 255 printable characters" }],
      });
    }
    const principal = principalOf(request);
    const scope = principal.role === "admin" ? "admin" : `client:${principal.clientId}`;
    const requestHash = requestHasher.hash(request, sentBodies.get(request));
    const token = randomUUID();
    const newTransactionId = request.routeOptions.config.startsPayment ? newId() : undefined;
    const newResourceId = request.routeOptions.config.createsResource ? newId() : undefined;
    const claimRow = { scope, key, requestHash, token, lockMs: inProgressTimeoutMs, transactionId: newTransactionId ?? null, resourceId: newResourceId ?? null };
    if (await records.claimKey(claimRow)) {
      request.idempotency = { ...unclaimed(scope, key), token, newTransactionId, resourceId: newResourceId };
      return;
    }
    const existing = await db
      .selectFrom("idempotency_records")
      .select(["request_hash", "status_code", "response_headers", "response_body", "claim_token", "transaction_id", "payment_id", "resource_id"])
      .select(sql<boolean>`coalesce(locked_until < now(), true)`.as("expired"))
      .select(isRetained(retentionMs).as("retained"))
      .where("scope", "=", scope)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    // Gone since the claim found it: its request answered a 5xx that freed the key (or the record
    // outlived the retention and was purged). That request was in flight when this one came.
    if (!existing) throw inProgress();
    const takeOver = (values: UpdateObject<Database, "idempotency_records">) =>
      db
        .updateTable("idempotency_records")
        .set({ ...values, claim_token: token, locked_until: lockedUntil })
        .where("scope", "=", scope)
        .where("idempotency_key", "=", key)
        .where((where) =>
          existing.claim_token === null ? where("claim_token", "is", null) : where("claim_token", "=", existing.claim_token),
        )
        .returning("scope")
        .executeTakeFirst();
    // Remembered no more (API.md): the same key starts a new request, with a record of its own.
    if (!existing.retained) {
      const renewed = await takeOver({
        request_hash: requestHash,
        transaction_id: newTransactionId ?? null,
        payment_id: newTransactionId ?? null,
        resource_id: newResourceId ?? null,
        status_code: null,
        response_headers: null,
        response_body: null,
        created_at: sql`now()`,
        completed_at: null,
      });
      if (!renewed) throw inProgress();
      request.idempotency = { ...unclaimed(scope, key), token, newTransactionId, resourceId: newResourceId };
      return;
    }
    if (!requestHasher.matches(existing.request_hash, request, sentBodies.get(request))) {
      throw new ApiProblem("idempotency_key_reused", "This Idempotency-Key was used with a different request.");
    }
    const bound =
      existing.transaction_id && existing.payment_id
        ? { transactionId: existing.transaction_id, paymentId: existing.payment_id }
        : undefined;
    if (bound && existing.status_code !== null && answersWithTransaction.has(existing.status_code)) {
      request.idempotency = { ...unclaimed(scope, key), bound };
      return;
    }
    if (existing.status_code !== null && existing.status_code < 500) {
      return replay(reply, existing.status_code, existing.response_headers ?? {}, existing.response_body ?? "");
    }
    // Still running, or answered with its transaction (whose answer the log keeps), or its request
    // died (an instance's crash or a 5xx after the key was bound): once the claim has expired,
    // this request takes it over and finishes what it left.
    if (existing.status_code === null && !existing.expired) {
      if (!bound) throw inProgress();
      request.idempotency = { ...unclaimed(scope, key), bound, unanswered: true };
      return;
    }
    // A record from before resource ids were kept has none: it gets one with this claim.
    const resourceId = existing.resource_id ?? newResourceId;
    if (!(await takeOver({ status_code: null, completed_at: null, resource_id: resourceId ?? null }))) throw inProgress();
    request.idempotency = { ...unclaimed(scope, key), token, bound, resourceId };
  };
  app.addHook("preHandler", async (request, reply) => {
    if (request.headers["idempotency-key"] === undefined) return claimKey(request, reply);
    return inSpan(tracer, "idempotency claim", {}, async (span) => {
      try {
        const replayed = await claimKey(request, reply);
        const claim = request.idempotency;
        span.setAttribute("ledger.idempotency", reply.sent ? "replayed" : claim?.token ? "claimed" : claim?.bound ? "bound" : "none");
        return replayed;
      } catch (error) {
        if (error instanceof ApiProblem) span.setAttribute("ledger.idempotency", error.code);
        throw error;
      }
    });
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim?.token) return payload;
    request.idempotency = undefined;
    if (claim.answeredByLog) return payload;
    if (reply.statusCode >= 500 && !answersWithTransaction.has(reply.statusCode) && (await releaseClaim(db, claim, claim.token))) return payload;
    const headers = Object.fromEntries(
      replayedHeaders.flatMap((name) => {
        const value = reply.getHeader(name);
        return value === undefined ? [] : [[name, String(value)]];
      }),
    );
    const body = typeof payload === "string" ? storedAnswer(payload, request.routeOptions.config) : "";
    const answer = { scope: claim.scope, key: claim.key, token: claim.token, statusCode: reply.statusCode, headers, body };
    const store = () => records.storeAnswer(answer);
    try {
      await retry(idempotencyRecordWrite, store);
    } catch (error) {
      // The answer carries a recorded transaction and the key stays bound to it: a retry answers
      // that transaction as it stands, so the caller still gets this answer now.
      if (!answersWithTransaction.has(reply.statusCode)) throw error;
      request.log.error({ err: error }, "storing an idempotent answer failed; the key stays bound to its transaction");
    }
    return payload;
  });
}

/**
 * Frees the key of a request that failed with a 5xx before any transaction was bound, so that the
 * caller may retry with it at once: `true` when freed. A bound key stays bound: its retry finishes
 * that transaction. A key claimed for a new transaction is bound from its claim on, but only counts
 * as bound once the request went on to record that transaction's intent. A key claimed for a
 * resource keeps its record, with the claim ended: the request may have made the resource before it
 * failed (an append whose outcome is unknown), and the retry makes or finds that same resource.
 * Written again for about 1.5 s, so that a database fault of the moment does not leave the key
 * blocked for the claim's whole lock.
 */
async function releaseClaim(db: Kysely<Database>, claim: IdempotencyClaim, token: string): Promise<boolean> {
  const unbound = claim.newTransactionId !== undefined && !claim.newTransactionBound;
  const ofThisClaim = (where: ExpressionBuilder<Database, "idempotency_records">) =>
    where.and([
      where("scope", "=", claim.scope),
      where("idempotency_key", "=", claim.key),
      where("claim_token", "=", token),
      ...(unbound ? [] : [where("transaction_id", "is", null)]),
    ]);
  const released = await retry(idempotencyRecordWrite, async () =>
    claim.resourceId === undefined
      ? (await db.deleteFrom("idempotency_records").where(ofThisClaim).executeTakeFirst()).numDeletedRows
      : (await db.updateTable("idempotency_records").set({ locked_until: null }).where(ofThisClaim).executeTakeFirst()).numUpdatedRows,
  );
  return released > 0n;
}

/** The id of the resource a `createsResource` route makes: the one its key was claimed for, or a new one without a key. */
export function claimedResourceId(request: FastifyRequest): string {
  return request.idempotency?.resourceId ?? newId();
}

/**
 * Told by a route the transaction it answers with under the request's key (none: its intent is not
 * recorded). Once a transaction's outcome is recorded, the log holds the key's answer, so none is
 * stored: a retry finds the key bound and answers the transaction as it stands. A retry that finds
 * the key unanswered is refused while its transaction has no outcome, since its request may still
 * be running (409, as for any key in flight).
 */
export function answeringWithTransaction(request: FastifyRequest, transaction: TransactionView | undefined): void {
  const claim = request.idempotency;
  if (!claim) return;
  const answered = transaction !== undefined && transaction.status !== "pending";
  if (claim.unanswered && !answered) throw inProgress();
  claim.answeredByLog = answered;
}

/**
 * Binds the request's key to a transaction, if the request holds its key's claim; `false` if
 * another took it over. The transaction the key was claimed for is bound already: a request that
 * took the key over meanwhile found it bound and makes that same transaction, so at most one of
 * the two intents is recorded (its stream must not exist yet).
 */
export function bindIdempotencyKey(request: FastifyRequest): BindIdempotencyKey | undefined {
  const claim = request.idempotency;
  if (!claim) return undefined;
  return async ({ transactionId, paymentId }) => {
    if (claim.token === undefined) return false;
    if (claim.newTransactionId === transactionId && paymentId === transactionId) {
      claim.newTransactionBound = true;
      return true;
    }
    return claim.records.bindKey({ scope: claim.scope, key: claim.key, token: claim.token, transactionId, paymentId });
  };
}

const inProgress = () =>
  new ApiProblem("idempotency_request_in_progress", "A request with this Idempotency-Key is still being processed; retry later.");

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string) {
  return reply.code(status).headers(headers).header(REPLAYED_HEADER, "true").send(body);
}

/**
 * The stored answer: a secret shown once (an API key) is never written down, so a replay answers it
 * `null`; nor is a fingerprint that must go with its payment method's key.
 */
function storedAnswer(payload: string, { secretResponseFields: fields = [], forgetsCardFingerprint }: FastifyContextConfig): string {
  if (fields.length === 0 && !forgetsCardFingerprint) return payload;
  const body: unknown = JSON.parse(payload);
  if (body === null || typeof body !== "object" || Array.isArray(body)) return payload;
  const stored: Record<string, unknown> = { ...body, ...Object.fromEntries(fields.filter((field) => field in body).map((field) => [field, null])) };
  const card = stored.card;
  if (forgetsCardFingerprint && card !== null && typeof card === "object") {
    const { fingerprint: _forgotten, ...summary } = card as Record<string, unknown>;
    stored.card = summary;
  }
  return JSON.stringify(stored);
}
