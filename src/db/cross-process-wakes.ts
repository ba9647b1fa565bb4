import { EventEmitter } from "node:events";
import pg from "pg";
import type { Logger } from "../logger.ts";
import type { DatabaseConnection } from "./connection.ts";

/** How long after losing its connection the listener connects again. */
const RECONNECT_AFTER_MS = 1_000;

/**
 * What the other processes on the same PostgreSQL database did, heard through LISTEN (the
 * notices come from triggers, migration 0031): events appended, so a projector elsewhere reads
 * them now rather than at its next poll; a projection's batch committed, so a request elsewhere
 * that waits for its own write looks now rather than at its next pause's end. This process's
 * own notices are skipped: it tells itself in memory. The polls stay: a notice missed while
 * the listener reconnects only delays a wake until the next one.
 */
export interface CrossProcessWakes {
  onAppended(listener: () => void): void;
  onApplied(listener: (projection: string) => void): void;
  close(): Promise<void>;
}

/** Ends a listening connection, deaf from now on; an error it still raises is dropped, not thrown. */
function forget(client: pg.Client): Promise<void> {
  client.removeAllListeners();
  client.on("error", () => {});
  return client.end().catch(() => {});
}

/** Listens on a connection of its own, `ownName` being this process's `application_name`; connects again when it is lost. */
export function listenAcrossProcesses(connectionString: string, ownName: string, logger: Pick<Logger, "warn">): CrossProcessWakes {
  const heard = new EventEmitter().setMaxListeners(0);
  let client: pg.Client | undefined;
  let reconnect: NodeJS.Timeout | undefined;
  let closed = false;
  let warned = false;

  const onNotice = ({ channel, payload = "" }: pg.Notification) => {
    if (channel === "ledger_appended") {
      if (payload !== ownName) heard.emit("appended");
      return;
    }
    const [projection, sender] = payload.split("\t");
    if (projection && sender !== ownName) heard.emit("applied", projection);
  };
  const lost = (error?: Error) => {
    if (closed || reconnect) return;
    if (!warned) logger.warn({ err: error }, "listening for other processes' writes failed; polling until it listens again");
    warned = true;
    if (client) forget(client);
    client = undefined;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      void connect();
    }, RECONNECT_AFTER_MS);
  };
  const connect = async () => {
    const listening = new pg.Client({ connectionString, application_name: `${ownName} listener` });
    client = listening;
    listening.on("notification", onNotice);
    listening.on("error", lost);
    listening.on("end", () => lost());
    try {
      await listening.connect();
      await listening.query("listen ledger_appended");
      await listening.query("listen ledger_applied");
      // Closed meanwhile: `close` has ended this connection already.
      if (closed) return;
      if (warned) {
        warned = false;
        // What was missed meanwhile is read at once rather than at the next poll.
        heard.emit("appended");
      }
    } catch (error) {
      lost(error as Error);
    }
  };
  void connect();

  return {
    onAppended: (listener) => heard.on("appended", listener),
    onApplied: (listener) => heard.on("applied", listener),
    async close() {
      closed = true;
      clearTimeout(reconnect);
      const open = client;
      client = undefined;
      if (open) await forget(open);
    },
  };
}

/**
 * The other processes' wakes on a PostgreSQL database; none on the embedded one, whose one
 * process tells itself.
 */
export function crossProcessWakes(
  config: { databaseUrl: string | undefined },
  database: Pick<DatabaseConnection, "kind" | "processName">,
  logger: Pick<Logger, "warn">,
): CrossProcessWakes | undefined {
  if (database.kind !== "postgres" || !database.processName || !config.databaseUrl) return undefined;
  return listenAcrossProcesses(config.databaseUrl, database.processName, logger);
}
