import type { FastifyInstance } from "fastify";
import { z } from "zod";

const health = { tags: ["operations"], security: [] };

/** GET /health/live and GET /health/ready, open to anyone (load balancers, orchestrators). */
export function registerHealth(app: FastifyInstance, checkReadiness: () => Promise<void>): void {
  app.get(
    "/health/live",
    {
      schema: {
        ...health,
        operationId: "getLiveness",
        summary: "Liveness: the process answers",
        response: { 200: z.object({ status: z.literal("ok") }).describe("The process answers") },
      },
    },
    async () => ({ status: "ok" as const }),
  );
  app.get(
    "/health/ready",
    {
      schema: {
        ...health,
        operationId: "getReadiness",
        summary: "Readiness: every read model table and the event store answer",
        description: "503 while one does not: a load balancer sends this instance no traffic meanwhile.",
        response: {
          200: z.object({ status: z.literal("ready") }).describe("Ready for traffic"),
          503: z.object({ status: z.literal("unavailable") }).describe("A store does not answer"),
        },
      },
    },
    async (request, reply) => {
      try {
        await checkReadiness();
        return { status: "ready" as const };
      } catch (error) {
        request.log.warn({ err: error }, "not ready");
        return reply.code(503).send({ status: "unavailable" as const });
      }
    },
  );
}
