import { type Kysely, sql } from "kysely";
import { type Batched, batchWhileBusy } from "../batching/batch-while-busy.ts";
import type { Database } from "../db/schema.ts";

/**
 * The writes every keyed request makes to its idempotency record, grouped: those that arrive while
 * one is in flight share one statement (a keyed sale made three round trips of its own before).
 * Each row keeps its own condition (its scope and key, its claim token), so grouping changes no
 * answer. Rows are taken in key order, so two instances' groups lock shared keys in one order;
 * a group that fails all the same is written again row by row, so one row's failure stays its own.
 */

export interface ClaimRow {
  scope: string;
  key: string;
  requestHash: string;
  token: string;
  /** How long the claim blocks its key if its request never answers. */
  lockMs: number;
  /** A new payment's transaction (its id is also the payment's) that the key is bound to with its claim. */
  transactionId: string | null;
  /** What a creating request makes (`createsResource`), its id made with the claim. */
  resourceId: string | null;
}

export interface BindRow {
  scope: string;
  key: string;
  token: string;
  transactionId: string;
  paymentId: string;
}

export interface AnswerRow {
  scope: string;
  key: string;
  token: string;
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const byKey = <Row extends { scope: string; key: string }>(rows: Row[]) =>
  [...rows].sort((a, b) => (a.scope === b.scope ? compare(a.key, b.key) : compare(a.scope, b.scope)));
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const column = <Row, Name extends keyof Row>(rows: Row[], name: Name): Row[Name][] => rows.map((row) => row[name]);

/**
 * Runs `write` on each group of rows that arrive together; if that fails, on each row alone, so
 * that each row answers for itself.
 */
function grouped<Row, Result>(db: Kysely<Database>, write: (db: Kysely<Database>, rows: Row[]) => Promise<Result[]>) {
  const batched: Batched<Row, PromiseSettledResult<Result>> = batchWhileBusy(async (rows: Row[]) => {
    try {
      return (await write(db, rows)).map((value): PromiseSettledResult<Result> => ({ status: "fulfilled", value }));
    } catch (error) {
      if (rows.length === 1) return [{ status: "rejected", reason: error }];
      return Promise.all(
        rows.map((row) =>
          write(db, [row]).then(
            ([value]) => ({ status: "fulfilled" as const, value: value! }),
            (reason: unknown) => ({ status: "rejected" as const, reason }),
          ),
        ),
      );
    }
  });
  return async (row: Row): Promise<Result> => {
    const settled = await batched(row);
    if (settled.status === "rejected") throw settled.reason;
    return settled.value;
  };
}

/** The grouped writes of one service's idempotency records. */
export interface IdempotencyRecords {
  /** Claims the key for the row's request: `false` when the key already has a record. */
  claimKey(row: ClaimRow): Promise<boolean>;
  /** Binds the key to a transaction, if the row's request still holds its claim: `false` if another took it over. */
  bindKey(row: BindRow): Promise<boolean>;
  /** Stores the answer of the request that holds the key's claim; a claim taken over meanwhile is left alone. */
  storeAnswer(row: AnswerRow): Promise<void>;
}

export function idempotencyRecords(db: Kysely<Database>): IdempotencyRecords {
  return { claimKey: grouped(db, claimKeys), bindKey: grouped(db, bindKeys), storeAnswer: grouped(db, storeAnswers) };
}

/** For each row, whether the statement returned its claim token (it claimed, or still holds, its key). */
function returnedTokens(rows: readonly { token: string }[], returned: readonly { claim_token: string }[]): boolean[] {
  const tokens = new Set(returned.map((row) => row.claim_token));
  return rows.map((row) => tokens.has(row.token));
}

/**
 * Whether a record still holds its key: first used within the retention, or claimed by a request
 * still running (a claim is never taken from under its request, however old its key). A record
 * that does not is as good as absent: its key starts a new request, and the purge deletes it.
 */
export const isRetained = (retentionMs: number) =>
  sql<boolean>`(created_at >= now() - ${retentionMs} * interval '1 millisecond' or (status_code is null and locked_until >= now()))`;

async function claimKeys(db: Kysely<Database>, rows: ClaimRow[]): Promise<boolean[]> {
  // An insert joins nothing, so its rows can come as one JSON list.
  const { rows: claimed } = await sql<{ claim_token: string }>`
    insert into idempotency_records (scope, idempotency_key, request_hash, claim_token, locked_until, transaction_id, payment_id, resource_id)
    select c.scope, c.key, c."requestHash", c.token, now() + c."lockMs" * interval '1 millisecond', c."transactionId", c."transactionId", c."resourceId"
    from json_to_recordset(${JSON.stringify(byKey(rows))}::json)
      as c(scope text, key text, "requestHash" text, token text, "lockMs" integer, "transactionId" uuid, "resourceId" uuid)
    on conflict (scope, idempotency_key) do nothing
    returning claim_token
  `.execute(db);
  return returnedTokens(rows, claimed);
}

async function bindKeys(db: Kysely<Database>, rows: BindRow[]): Promise<boolean[]> {
  const sorted = byKey(rows);
  // Rows as arrays through unnest, whose row count the planner knows: joined to a JSON list
  // (estimated at 100 rows), the update scanned the whole table while it held under ~30,000 records.
  const { rows: bound } = await sql<{ claim_token: string }>`
    update idempotency_records as record
    set transaction_id = bind.transaction_id, payment_id = bind.payment_id
    from unnest(
      ${column(sorted, "scope")}::text[], ${column(sorted, "key")}::text[], ${column(sorted, "token")}::text[],
      ${column(sorted, "transactionId")}::uuid[], ${column(sorted, "paymentId")}::uuid[]
    ) as bind(scope, key, token, transaction_id, payment_id)
    where record.scope = bind.scope and record.idempotency_key = bind.key and record.claim_token = bind.token
      and (record.transaction_id is null or record.transaction_id = bind.transaction_id)
    returning record.claim_token
  `.execute(db);
  return returnedTokens(rows, bound);
}

async function storeAnswers(db: Kysely<Database>, rows: AnswerRow[]): Promise<void[]> {
  const sorted = byKey(rows);
  await sql`
    update idempotency_records as record
    set status_code = answer.status_code, response_headers = answer.headers, response_body = answer.body,
        completed_at = now(), locked_until = null
    from unnest(
      ${column(sorted, "scope")}::text[], ${column(sorted, "key")}::text[], ${column(sorted, "token")}::text[],
      ${column(sorted, "statusCode")}::integer[], ${sorted.map((row) => JSON.stringify(row.headers))}::jsonb[],
      ${column(sorted, "body")}::text[]
    ) as answer(scope, key, token, status_code, headers, body)
    where record.scope = answer.scope and record.idempotency_key = answer.key and record.claim_token = answer.token
  `.execute(db);
  return rows.map(() => undefined);
}
