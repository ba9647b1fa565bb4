import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { FastifyInstance } from "fastify";

/** The OpenAPI document of every route registered after this, served at /openapi.json and /docs. */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Payment ledger API",
        version: "1.0.0",
        description: "Card transactions against four processors, with an auditable event log. See API.md.",
      },
      components: { securitySchemes: { apiKey: { type: "http", scheme: "bearer" } } },
      security: [{ apiKey: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
