import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { type Processor, processors } from "../../domain/host-configurations/schemas.ts";

export interface HealthDependencies {
  /** Resolves when every store answers; rejects with the reason otherwise. */
  checkReadiness: () => Promise<void>;
  /** The processors answered by the built-in simulator, not by a real processor: none in a real deployment. */
  simulatedProcessors: readonly Processor[];
}

const health = { tags: ["operations"], security: [] };
const simulatedProcessorsSchema = z
  .array(z.enum(processors))
  .describe("The processors answered by the built-in simulator: empty in a real deployment.");

/** GET /health/live and GET /health/ready, outside /v1 and open to anyone (supervisors, load balancers). */
export function registerHealth(app: FastifyInstance, { checkReadiness, simulatedProcessors }: HealthDependencies): void {
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
          200: z.object({ status: z.literal("ready"), simulatedProcessors: simulatedProcessorsSchema }).describe("Ready for traffic"),
          503: z
            .object({ status: z.literal("unavailable"), simulatedProcessors: simulatedProcessorsSchema })
            .describe("A store does not answer"),
        },
      },
    },
    async (request, reply) => {
      try {
        await checkReadiness();
        return { status: "ready" as const, simulatedProcessors: [...simulatedProcessors] };
      } catch (error) {
        request.log.warn({ err: error }, "not ready");
        return reply.code(503).send({ status: "unavailable" as const, simulatedProcessors: [...simulatedProcessors] });
      }
    },
  );
}
