import { v4 as uuidV4 } from "uuid";
import { forgetKey, readKey } from "./session.ts";
import type { Transaction } from "./types.ts";

/** An answer of the API that is not a success: its problem (RFC 9457) as the API gave it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    /** The transaction the refused request recorded all the same (declined, failed, outcome unknown). */
    readonly transaction: Transaction | null = null,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

type Query = Record<string, string | number | undefined>;

/** Dispatched on window when the API no longer accepts the key: the console signs out. */
export const SIGNED_OUT_EVENT = "ledger-console:signed-out";

async function answerOf<T>(response: Response, key: string | null): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body as T;
  const problem = (body ?? {}) as { code?: string; detail?: string; transaction?: Transaction };
  const error = new ApiError(
    response.status,
    problem.code ?? "unknown",
    problem.detail ?? `The API answered ${response.status}.`,
    problem.transaction ?? null,
  );
  if (response.status === 401 && key === readKey()) {
    forgetKey();
    window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
  }
  throw error;
}

/** GET on the public API with the signed-in key; empty query values are left out. */
export async function apiGet<T>(path: string, query: Query = {}, key = readKey()): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, String(value));
  const search = params.size > 0 ? `?${params}` : "";
  const response = await fetch(`/v1${path}${search}`, {
    headers: { authorization: `Bearer ${key ?? ""}`, accept: "application/json" },
    cache: "no-store",
  });
  return answerOf<T>(response, key);
}

/**
 * POST on the public API with the signed-in key, under the Idempotency-Key of the operator's one
 * intent: sent again with the same key (a second click, a retry after no answer), the API
 * answers the first request's outcome and does nothing twice.
 */
export async function apiPost<T>(path: string, body: object, idempotencyKey: string): Promise<T> {
  const key = readKey();
  const response = await fetch(`/v1${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key ?? ""}`,
      accept: "application/json",
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify(body),
    cache: "no-store",
  });
  return answerOf<T>(response, key);
}

/** A key for one intent of the operator; random, from `crypto.getRandomValues` (which plain http allows too). */
export const newIdempotencyKey = (): string => uuidV4();

/** Who a key is, as the API says (`GET /v1/me`). */
export type Caller = { role: "admin" } | { role: "client"; clientId: string; keyId: string };
export type Role = Caller["role"];

export const callerOf = (key: string): Promise<Caller> => apiGet<Caller>("/me", {}, key);
