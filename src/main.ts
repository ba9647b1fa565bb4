import { loadConfig } from "./config.ts";
import { createLogger } from "./logger.ts";
import { startService } from "./service.ts";

const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);

try {
  const service = await startService(config, logger);
  logger.info(`API: ${service.url}/v1 · health: ${service.url}/health/ready`);
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
