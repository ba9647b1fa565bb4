/**
 * A bounded wait that ran out: a full queue, or the database's connect, statement or lock
 * timeout. Nothing of the failed step was done; the caller may retry it later. The API answers
 * it with 503 and `retry-after`.
 */
export class OverloadedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "OverloadedError";
  }
}

/**
 * PostgreSQL's codes for a statement cancelled by `statement_timeout` (query_canceled), a lock not
 * granted within `lock_timeout` (lock_not_available), and too many connections.
 */
const overloadCodes = new Set(["57014", "55P03", "53300"]);

/** pg-pool's messages when no connection came free, or none was made, within `connectionTimeoutMillis`. */
const poolTimeoutMessages = ["timeout exceeded when trying to connect", "Connection terminated due to connection timeout"];

/** Whether `error` means "busy, try again later" rather than a fault: safe to retry. */
export function isOverload(error: unknown): boolean {
  if (error instanceof OverloadedError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === "string" && overloadCodes.has(code)) || poolTimeoutMessages.includes(error.message);
}
