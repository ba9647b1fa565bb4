import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { type Config, loadConfig } from "./config.ts";
import { createLogger, logDestination } from "./logger.ts";
import { checkEventStoreDbAnswers } from "./eventstore/eventstoredb/event-store.ts";
import { startProjector } from "./projections/projector.ts";
import { startService } from "./service.ts";

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
function stopOnSignal(logger: ReturnType<typeof createLogger>, stop: () => Promise<void>): void {
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

/**
 * The projector in a child process of this one, with this process's environment and node flags.
 * It exits when this process goes (its IPC channel closes), even when this one is killed.
 */
async function forkProjector(): Promise<ChildProcess> {
  const child = fork(fileURLToPath(import.meta.url), ["projector"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const [message] = (await Promise.race([once(child, "message"), once(child, "exit")])) as unknown[];
  if (message !== "running") throw new Error("the projector process exited before it ran");
  return child;
}

const role = roleOrExit(process.argv[2]);
const config = configurationOrExit(role);
const logger = createLogger(config.logLevel, logDestination(process.stdout));

try {
  if (config.eventStoreUrl) await checkEventStoreDbAnswers(config.eventStoreUrl);
  if (role === "projector") {
    const projector = await startProjector(config, logger);
    stopOnSignal(logger, () => projector.stop());
    if (process.send) {
      process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
      process.send("running");
    }
  } else {
    // On PostgreSQL, `npm start` runs the projections in a process of their own, so they do not
    // share the requests' event loop; the embedded database is this process's alone, so there
    // they run here.
    const projector = role === "all" && config.databaseUrl ? await forkProjector() : undefined;
    const projectorExited = projector ? once(projector, "exit") : undefined;
    const service = await startService(config, logger, undefined, { projections: role === "all" && !projector ? "here" : "elsewhere" });
    logger.info(`API: ${service.url}/v1 · docs: ${service.url}/docs · health: ${service.url}/health/ready`);
    if (service.generatedAdminKey) {
      // Straight to the terminal, never through the logger: the key is shown this once only.
      process.stdout.write(
        `\nGenerated admin API key (shown once; only its hash is kept; \`npm run ledger -- admin-key rotate\` replaces it, or set ADMIN_API_KEY to choose your own):\n\n  ${service.generatedAdminKey}\n\n`,
      );
    }
    let stopping = false;
    const stopAll = async () => {
      stopping = true;
      // The API first: its last requests' reads wait for the projector.
      await service.stop();
      if (projector && projector.exitCode === null && projector.signalCode === null) {
        projector.kill("SIGTERM");
        await projectorExited;
      }
    };
    stopOnSignal(logger, stopAll);
    // Without its projector the API's reads would go stale: both go, for the supervisor to restart.
    projectorExited?.then(([code]) => {
      if (stopping) return;
      logger.error({ code }, "the projector process exited; stopping");
      stopAll().finally(() => process.exit(1));
    });
  }
} catch (error) {
  logger.fatal({ err: error }, "the service could not start");
  process.exit(1);
}
