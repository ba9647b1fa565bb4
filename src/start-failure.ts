import type { Config } from "./config.ts";
import { isDatabaseUnavailable } from "./db/unavailable.ts";

/** pg's messages for a server that accepted no connection within DATABASE_CONNECT_TIMEOUT_MS. */
const connectTimeoutMessages = new Set(["timeout exceeded when trying to connect", "Connection terminated due to connection timeout"]);

/** `error` and its causes, outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && !chain.includes(current); current = current instanceof Error ? current.cause : undefined) {
    chain.push(current);
  }
  return chain;
}

const codeOf = (error: unknown): string | undefined => {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === "string" ? code : undefined;
};

/** Where the database is, without its user or password: `host:port/database`. */
function databaseAddress(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}:${url.port || "5432"}${url.pathname}`;
}

/**
 * The one line a failed start ends with: what failed and where (the port, the database's address
 * without its credentials), with a pointer to the log, which holds the error itself.
 */
export function describeStartFailure(error: unknown, config: Pick<Config, "port" | "host" | "databaseUrl">): string {
  const chain = causes(error);
  const where = `${config.host}:${config.port}`;
  const listenCode = chain.map(codeOf).find((code) => code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL");
  if (listenCode === "EADDRINUSE") return `The service could not start: port ${config.port} is in use (EADDRINUSE) on ${where}; stop what listens there or set PORT (details in the log)`;
  if (listenCode === "EACCES") return `The service could not start: listening on ${where} is not permitted (EACCES); choose a PORT above 1023 (details in the log)`;
  if (listenCode === "EADDRNOTAVAIL") return `The service could not start: HOST=${config.host} is not an address of this machine (EADDRNOTAVAIL) (details in the log)`;
  if (config.databaseUrl) {
    const unavailable = chain.find((cause) => isDatabaseUnavailable(cause) || (cause instanceof Error && connectTimeoutMessages.has(cause.message)));
    if (unavailable !== undefined) {
      const reason = codeOf(unavailable) ?? (unavailable as Error).message;
      return `The service could not start: the database at ${databaseAddress(config.databaseUrl)} does not answer (${reason}); check DATABASE_URL and that the server runs (details in the log)`;
    }
  }
  const messages = [chain[0], chain.at(-1)].map((cause) => (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]);
  return `The service could not start: ${[...new Set(messages)].join(": ")} (details in the log)`;
}
