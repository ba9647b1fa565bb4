/**
 * PostgreSQL's codes for a server that ended or refused the session: class 08 (connection
 * exception), and admin_shutdown, crash_shutdown, cannot_connect_now (a restart, an administrator
 * ending the backend, a server still starting).
 */
const unavailableCodes = /^(08[0-9A-Z]{3}|57P0[123])$/;

/** Node's codes for a socket to the server that was refused, reset or broken. */
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/** pg's messages for a connection that ended under a query (the server restarted or was killed). */
const lostConnectionMessages = new Set(["Connection terminated unexpectedly", "Connection terminated"]);

/**
 * Whether `error` means the database could not be reached or dropped the connection: a fault of
 * the moment, answered 503 so the caller retries (under its Idempotency-Key). A write that fails
 * so may have been committed; the caller's retry finds it.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (lostConnectionMessages.has(error.message)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  return unavailableCodes.test(code) || socketCodes.has(code);
}
