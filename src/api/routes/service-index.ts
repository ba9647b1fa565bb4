import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

const link = z.object({ href: z.string(), title: z.string() }).meta({ id: "Link" });

const serviceIndexSchema = z
  .object({
    name: z.string(),
    links: z.object({ api: link, docs: link, openapi: link, live: link, ready: link, metrics: link, console: link, checkpointKeys: link }),
  })
  .meta({ id: "ServiceIndex" })
  .describe("The service's entry points");

const apiIndexSchema = z
  .object({
    name: z.string(),
    links: z.object({
      service: link,
      docs: link,
      openapi: link,
      me: link,
      clients: link,
      transactions: link,
      settlements: link,
      webhookEndpoints: link,
      events: link,
      operationsStatus: link,
    }),
  })
  .meta({ id: "ApiIndex" })
  .describe("The API's reference and main resources");

const serviceLinks: z.infer<typeof serviceIndexSchema>["links"] = {
  api: { href: "/v1", title: "The API; every operation under it needs `Authorization: Bearer <api key>`" },
  docs: { href: "/docs", title: "The interactive API reference" },
  openapi: { href: "/openapi.json", title: "The OpenAPI 3.1 document" },
  live: { href: "/health/live", title: "Liveness: 200 while the process serves" },
  ready: { href: "/health/ready", title: "Readiness: 200 once every store answers, else 503; names the simulated processors" },
  metrics: { href: "/metrics", title: "Prometheus metrics" },
  console: { href: "/console", title: "The web console for operators and auditors" },
  checkpointKeys: { href: "/audit/checkpoint-keys", title: "The public keys that sign the chain checkpoints, for auditors: no API key" },
};

const apiLinks: z.infer<typeof apiIndexSchema>["links"] = {
  service: { href: "/", title: "What the service serves besides the API" },
  docs: serviceLinks.docs,
  openapi: serviceLinks.openapi,
  me: { href: "/v1/me", title: "Who the key you send is: the admin, or a client and its key" },
  clients: { href: "/v1/clients", title: "Clients, their API keys and limits (admin)" },
  transactions: { href: "/v1/transactions", title: "Transaction history; POST /v1/transactions/{type} makes one (client keys)" },
  settlements: { href: "/v1/settlements", title: "Settlement batches and their reconciliation" },
  webhookEndpoints: { href: "/v1/webhook-endpoints", title: "Where outcomes are sent, signed" },
  events: { href: "/v1/events", title: "The whole event log in commit order (admin)" },
  operationsStatus: { href: "/v1/operations/status", title: "Projection lag, pending work, background jobs (admin)" },
};

/**
 * `GET /` and `GET /v1`: where a newcomer (or a script) finds everything else, so neither root
 * answers 404. Neither needs a key.
 */
export function registerServiceIndex(app: FastifyInstance): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/",
    {
      schema: {
        operationId: "getServiceIndex",
        tags: ["service"],
        summary: "Links to the API, its reference, health, metrics and the console",
        security: [],
        response: { 200: serviceIndexSchema },
      },
    },
    async () => ({ name: "Payment ledger", links: serviceLinks }),
  );
  typed.get(
    "/v1",
    {
      schema: {
        operationId: "getApiIndex",
        tags: ["service"],
        summary: "Links to the API's reference and its main resources",
        description: "Every other operation under `/v1` needs `Authorization: Bearer <api key>`.",
        security: [],
        response: { 200: apiIndexSchema },
      },
    },
    async () => ({ name: "Payment ledger API", links: apiLinks }),
  );
}
