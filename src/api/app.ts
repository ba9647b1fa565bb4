import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { Logger } from "../logger.ts";

export interface AppDependencies {
  logger: Logger;
  /** Resolves when every store answers; rejects with the reason otherwise. */
  checkReadiness: () => Promise<void>;
}

/** The HTTP application, built without listening so tests can drive it in-process. */
export function buildApp({ logger, checkReadiness }: AppDependencies): FastifyInstance {
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger });

  app.get("/health/live", async () => ({ status: "ok" }));

  app.get("/health/ready", async (_request, reply) => {
    try {
      await checkReadiness();
      return { status: "ready" };
    } catch (error) {
      reply.log.warn({ err: error }, "not ready");
      return reply.code(503).send({ status: "unavailable" });
    }
  });

  return app;
}
