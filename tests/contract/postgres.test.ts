import { sql } from "kysely";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { openTestDatabase, testDatabaseTargets } from "../support/database.ts";
import { describeEventStoreContract } from "./event-store.contract.ts";

for (const target of testDatabaseTargets()) {
  describeEventStoreContract(target === "postgres" ? "PostgreSQL" : "PGlite", async () => {
    const database = await openTestDatabase(target);
    return {
      store: new PostgresEventStore(database.db, { pollIntervalMs: 20 }),
      advancePositionBeyond: async (position) => {
        await sql`select setval(pg_get_serial_sequence('events', 'position'), ${position.toString()}::bigint)`.execute(
          database.db,
        );
      },
      eventIdsUniqueIn: "log",
      close: () => database.close(),
    };
  });
}
