import type { FastifyInstance } from "fastify";
import type { Processor } from "../../domain/host-configurations/schemas.ts";

export interface HealthDependencies {
  /** Resolves when every store answers; rejects with the reason otherwise. */
  checkReadiness: () => Promise<void>;
  /** The processors answered by the built-in simulator, not by a real processor: none in a real deployment. */
  simulatedProcessors: readonly Processor[];
}

/** Liveness and readiness for supervisors and load balancers, outside /v1 and without a key. */
export function registerHealth(app: FastifyInstance, { checkReadiness, simulatedProcessors }: HealthDependencies): void {
  app.get("/health/live", { schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/health/ready", { schema: { hide: true } }, async (request, reply) => {
    try {
      await checkReadiness();
      return { status: "ready", simulatedProcessors };
    } catch (error) {
      request.log.warn({ err: error }, "not ready");
      return reply.code(503).send({ status: "unavailable", simulatedProcessors });
    }
  });
}
