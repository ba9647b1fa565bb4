import { forgetKey, readKey } from "./session.ts";

/** An answer of the API that is not a success: its problem (RFC 9457) as the API gave it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

type Query = Record<string, string | number | undefined>;

/** Dispatched on window when the API no longer accepts the key: the console signs out. */
export const SIGNED_OUT_EVENT = "ledger-console:signed-out";

/** GET on the public API with the signed-in key; empty query values are left out. */
export async function apiGet<T>(path: string, query: Query = {}, key = readKey()): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(name, String(value));
  const search = params.size > 0 ? `?${params}` : "";
  const response = await fetch(`/v1${path}${search}`, {
    headers: { authorization: `Bearer ${key ?? ""}`, accept: "application/json" },
    cache: "no-store",
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return body as T;
  const problem = (body ?? {}) as { code?: string; detail?: string };
  const error = new ApiError(response.status, problem.code ?? "unknown", problem.detail ?? `The API answered ${response.status}.`);
  if (response.status === 401 && key === readKey()) {
    forgetKey();
    window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
  }
  throw error;
}

/** Who a key is, as the API says (`GET /v1/me`). */
export type Caller = { role: "admin" } | { role: "client"; clientId: string; keyId: string };
export type Role = Caller["role"];

export const callerOf = (key: string): Promise<Caller> => apiGet<Caller>("/me", {}, key);
