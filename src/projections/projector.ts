import type { Tracer } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import type { Config } from "../config.ts";
import { type DatabaseConnection, openDatabase } from "../db/connection.ts";
import { crossProcessWakes } from "../db/cross-process-wakes.ts";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import { openEventStore } from "../eventstore/open.ts";
import type { Logger } from "../logger.ts";
import { startTracing } from "../telemetry/tracing.ts";
import { projections } from "./all.ts";
import { ReadYourWrites } from "./read-your-writes.ts";
import { ProjectionRunner } from "./runner.ts";

export interface ProjectionRunners {
  /** Stops every runner after its batch in flight and hands its lease back. */
  stop(): Promise<void>;
}

/** A runner for every projection, started: the read side, wherever it runs. */
export function startProjectionRunners(options: {
  db: Kysely<Database>;
  store: EventStore;
  logger: Logger;
  readYourWrites: ReadYourWrites;
  tracer: Tracer;
}): ProjectionRunners {
  const runners = projections.map((projection) => new ProjectionRunner({ ...options, projection }));
  for (const runner of runners) runner.start();
  return {
    async stop() {
      await Promise.all(runners.map((runner) => runner.stop()));
    },
  };
}

/**
 * The read side in a process of its own (`npm run start:projector`): the projections of the
 * database and event store of `config`, applied until stopped, while API processes answer
 * requests. An API's read that follows its own write then waits on the read model itself, which
 * this process moves (see `ReadYourWrites.waitForProjection`).
 */
export async function startProjector(config: Config, logger: Logger, opened?: DatabaseConnection): Promise<ProjectionRunners> {
  const database =
    opened ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }));
  const tracing = await startTracing(config.telemetry, logger);
  const wakes = crossProcessWakes(config, database, logger);
  const store = openEventStore(config.eventStoreUrl, database.db, wakes);
  // Nobody in this process waits for a projection: the registry only hears the runners.
  const runners = startProjectionRunners({ db: database.db, store, logger, readYourWrites: new ReadYourWrites(), tracer: tracing.tracer });
  logger.info({ database: database.kind, projections: projections.map((projection) => projection.name) }, "projector running");
  return {
    async stop() {
      await runners.stop();
      await store.close();
      await wakes?.close();
      await database.close();
      await tracing.shutdown();
    },
  };
}
