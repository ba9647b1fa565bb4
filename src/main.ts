import { type Config, loadConfig } from "./config.ts";
import { describeStartFailure } from "./start-failure.ts";
import type { Logger } from "./logger.ts";

// Everything else is imported once the configuration is valid: a refusal costs no more than
// reading it, and the database opens while the service's modules load.

/** Exit status of a start refused for its configuration: a supervisor should not retry it as it stands. */
const BAD_CONFIGURATION = 2;

/**
 * What this process runs: `all` (`npm start`) the API and the projections, `api` (`npm run
 * start:api`) the API alone, `projector` (`npm run start:projector`) the projections alone.
 */
const roles = ["all", "api", "projector"] as const;
type Role = (typeof roles)[number];

function roleOrExit(argument: string | undefined): Role {
  const role = roles.find((candidate) => candidate === (argument ?? "all"));
  if (role) return role;
  process.stderr.write(`the role must be one of ${roles.join(", ")}, not ${argument}\n`);
  process.exit(BAD_CONFIGURATION);
}

function configurationOrExit(role: Role): Config {
  try {
    const config = loadConfig(process.env);
    if (role !== "all" && !config.databaseUrl) {
      throw new Error(`start:${role} needs DATABASE_URL (PostgreSQL): the embedded database is one process's, and npm start runs the API and the projections in it`);
    }
    return config;
  } catch (error) {
    // One line naming the variable and what it must be: a stack would only bury it.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(BAD_CONFIGURATION);
  }
}

/** Stops `stop` on SIGINT or SIGTERM, then exits: 0 when it stopped cleanly. */
function stopOnSignal(logger: Logger, stop: () => Promise<void>): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      logger.info({ signal }, "shutting down");
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
}

const role = roleOrExit(process.argv[2]);
const config = configurationOrExit(role);
const { createLogger, logDestination } = await import("./logger.ts");
const logger = createLogger(config.logLevel, logDestination(process.stdout));

try {
  if (config.eventStoreUrl) {
    const { checkEventStoreDbAnswers } = await import("./eventstore/eventstoredb/event-store.ts");
    await checkEventStoreDbAnswers(config.eventStoreUrl);
  }
  if (role === "projector") {
    const { startProjector } = await import("./projections/projector.ts");
    const projector = await startProjector(config, logger);
    stopOnSignal(logger, () => projector.stop());
    // Started by a parent with an IPC channel (`bench:sales --projector process`): it says when it
    // runs, and goes when the parent does.
    if (process.send) {
      process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
      process.send("running");
    }
  } else {
    const [{ startService }, database] = await Promise.all([
      import("./service.ts"),
      import("./db/connection.ts").then(({ openDatabase }) =>
        openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }),
      ),
    ]);
    const service = await startService(config, logger, database, { projections: role === "all" ? "here" : "elsewhere" });
    logger.info(`API: ${service.url}/v1 · docs: ${service.url}/docs · health: ${service.url}/health/ready`);
    if (service.generatedAdminKey) {
      // Straight to the terminal, never through the logger: the key is shown this once only.
      process.stdout.write(
        `\nGenerated admin API key (shown once; only its hash is kept; \`npm run ledger -- admin-key rotate\` replaces it, or set ADMIN_API_KEY to choose your own):\n\n  ${service.generatedAdminKey.expose()}\n\n`,
      );
    }
    stopOnSignal(logger, () => service.stop());
  }
} catch (error) {
  // The details (the error, its causes and stacks) in the log; the last line says what and where.
  logger.fatal({ err: error }, "the service could not start");
  process.stderr.write(`${describeStartFailure(error, config)}\n`);
  process.exit(1);
}
