import { sql } from "kysely";
import { buildApp } from "./api/app.ts";
import type { Config } from "./config.ts";
import { openDatabase } from "./db/connection.ts";
import { openEventStore } from "./eventstore/open.ts";
import type { Logger } from "./logger.ts";

export interface Service {
  url: string;
  stop(): Promise<void>;
}

/** Opens the stores, runs the migrations, and serves HTTP until stopped. */
export async function startService(config: Config, logger: Logger): Promise<Service> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const store = openEventStore(config.eventStoreUrl, database.db);
  const app = buildApp({
    logger,
    checkReadiness: async () => {
      await sql`select 1`.execute(database.db);
      await store.readHead();
    },
  });
  const url = await app.listen({ port: config.port, host: config.host });
  logger.info(
    { database: database.kind, eventStore: config.eventStoreUrl ? "eventstoredb" : "postgres" },
    "payment ledger listening",
  );
  return {
    url,
    async stop() {
      await app.close();
      await store.close();
      await database.close();
    },
  };
}
