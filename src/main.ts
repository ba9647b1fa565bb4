import { type Config, loadConfig } from "./config.ts";
import { createLogger, logDestination } from "./logger.ts";
import { checkEventStoreDbAnswers } from "./eventstore/eventstoredb/event-store.ts";
import { startService } from "./service.ts";

/** Exit status of a start refused for its configuration: a supervisor should not retry it as it stands. */
const BAD_CONFIGURATION = 2;

function configurationOrExit(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    // One line naming the variable and what it must be: a stack would only bury it.
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(BAD_CONFIGURATION);
  }
}

const config = configurationOrExit();
const logger = createLogger(config.logLevel, logDestination(process.stdout));

try {
  if (config.eventStoreUrl) await checkEventStoreDbAnswers(config.eventStoreUrl);
  const service = await startService(config, logger);
  logger.info(`API: ${service.url}/v1 · docs: ${service.url}/docs · health: ${service.url}/health/ready`);
  if (service.generatedAdminKey) {
    // Straight to the terminal, never through the logger: the key is shown this once only.
    process.stdout.write(
      `\nGenerated admin API key (shown once; only its hash is kept; \`npm run ledger -- admin-key rotate\` replaces it, or set ADMIN_API_KEY to choose your own):\n\n  ${service.generatedAdminKey}\n\n`,
    );
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      logger.info({ signal }, "shutting down");
      service.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
} catch (error) {
  logger.fatal({ err: error }, "the service could not start");
  process.exit(1);
}
