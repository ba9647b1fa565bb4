import { type Kysely, sql } from "kysely";
import { batcherPer, batchWhileBusy } from "../batching/batch-while-busy.ts";
import type { Database } from "../db/schema.ts";

/**
 * The three writes every request with an Idempotency-Key makes (claim the key, bind it to a
 * transaction, store the answer). Requests that arrive while one of a kind is in flight are
 * written together in one statement: each row is still matched by its own claim token, so what
 * one request may write is exactly what it could write alone.
 */

/** A request's claim on its key: its token, so that only this request binds and completes the record. */
export interface ClaimOnKey {
  scope: string;
  key: string;
  token: string;
}

export interface NewClaim extends ClaimOnKey {
  requestHash: string;
  /** How long the claim blocks the key when its request never answers. */
  lockMs: number;
}

export interface Binding extends ClaimOnKey {
  transactionId: string;
  paymentId: string;
}

export interface Completion extends ClaimOnKey {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

type ClaimRow = { scope: string; idempotency_key: string; claim_token: string };

/** Whether each claim was inserted: false where a record for its key already existed (or another claim in the same statement took it). */
export const insertClaims = batcherPer((db: Kysely<Database>) =>
  batchWhileBusy(async (claims: NewClaim[]): Promise<boolean[]> => {
    const input = claims.map((claim) => ({
      scope: claim.scope,
      idempotency_key: claim.key,
      request_hash: claim.requestHash,
      claim_token: claim.token,
      lock_ms: claim.lockMs,
    }));
    const { rows } = await sql<ClaimRow>`
      insert into idempotency_records (scope, idempotency_key, request_hash, claim_token, locked_until)
      select scope, idempotency_key, request_hash, claim_token, now() + lock_ms * interval '1 millisecond'
      from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        as i(scope text, idempotency_key text, request_hash text, claim_token text, lock_ms bigint)
      on conflict (scope, idempotency_key) do nothing
      returning scope, idempotency_key, claim_token
    `.execute(db);
    return claims.map(matchedBy(rows));
  }),
);

/** Whether each claim still held its key and was bound to its transaction (or already to that one). */
export const bindClaims = batcherPer((db: Kysely<Database>) =>
  batchWhileBusy(async (bindings: Binding[]): Promise<boolean[]> => {
    const input = bindings.map((binding) => ({
      ...claimColumns(binding),
      transaction_id: binding.transactionId,
      payment_id: binding.paymentId,
    }));
    const { rows } = await sql<ClaimRow>`
      update idempotency_records as record
      set transaction_id = i.transaction_id, payment_id = i.payment_id
      from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        as i(scope text, idempotency_key text, claim_token text, transaction_id uuid, payment_id uuid)
      where record.scope = i.scope and record.idempotency_key = i.idempotency_key and record.claim_token = i.claim_token
        and (record.transaction_id is null or record.transaction_id = i.transaction_id)
      returning record.scope, record.idempotency_key, record.claim_token
    `.execute(db);
    return bindings.map(matchedBy(rows));
  }),
);

/** Stores each request's answer, where its claim still holds the key. */
export const completeClaims = batcherPer((db: Kysely<Database>) =>
  batchWhileBusy(async (completions: Completion[]): Promise<void[]> => {
    const input = completions.map((completion) => ({
      ...claimColumns(completion),
      status_code: completion.statusCode,
      response_headers: completion.headers,
      response_body: completion.body,
    }));
    await sql`
      update idempotency_records as record
      set status_code = i.status_code, response_headers = i.response_headers, response_body = i.response_body,
          completed_at = now(), locked_until = null
      from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        as i(scope text, idempotency_key text, claim_token text, status_code integer, response_headers jsonb, response_body text)
      where record.scope = i.scope and record.idempotency_key = i.idempotency_key and record.claim_token = i.claim_token
    `.execute(db);
    return completions.map(() => undefined);
  }),
);

const claimColumns = (claim: ClaimOnKey) => ({ scope: claim.scope, idempotency_key: claim.key, claim_token: claim.token });

/** Whether a statement's returned rows include this claim's (its token tells racing claims on one key apart). */
const matchedBy = (rows: ClaimRow[]) => {
  const matched = new Set(rows.map((row) => `${row.claim_token}\n${row.scope}\n${row.idempotency_key}`));
  return (claim: ClaimOnKey) => matched.has(`${claim.token}\n${claim.scope}\n${claim.key}`);
};
