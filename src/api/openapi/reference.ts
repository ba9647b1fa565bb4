import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { FastifyInstance } from "fastify";
import type { OpenAPIV3_1 } from "openapi-types";
import { serviceVersion } from "../../version.ts";
import { completeDocument } from "./complete-document.ts";

/** The OpenAPI document of every route registered after this, served at /openapi.json and /docs. */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Payment ledger API", version: serviceVersion },
      // Relative: the service that serves the document (and /docs) is the one it describes, wherever it is deployed.
      servers: [{ url: "/", description: "The service serving this document" }],
      components: {
        securitySchemes: {
          apiKey: { type: "http", scheme: "bearer", description: "An admin key or a client key." },
          metricsToken: { type: "http", scheme: "bearer", description: "The service's `METRICS_TOKEN`, when it runs with one." },
        },
      },
      security: [{ apiKey: [] }],
    },
    // The route's access goes with its operation, for the document to say who may call it.
    transform: (route) => {
      const transformed = jsonSchemaTransform(route);
      const access = route.route.config?.access;
      return access ? { ...transformed, schema: { ...transformed.schema, "x-access": access } } : transformed;
    },
    transformObject: (document) => completeDocument(jsonSchemaTransformObject(document) as OpenAPIV3_1.Document),
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
