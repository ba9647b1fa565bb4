import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { CommandContext } from "../../commands/context.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../../commands/webhook-endpoints.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import type { WebhookEndpointSnapshot } from "../../domain/webhooks/endpoint.ts";
import { checkWebhookUrl, type UrlPolicy } from "../../webhooks/destination.ts";
import { redeliver } from "../../webhooks/redelivery.ts";
import { queueTestMessage } from "../../webhooks/test-message.ts";
import { waitForWebhookEndpointWrite } from "../../projections/webhooks/own-writes.ts";
import {
  findWebhookDelivery,
  findWebhookEndpoint,
  webhookAttemptsOf,
  webhookAttemptView,
  webhookEndpointsOf,
  type WebhookEndpointView,
  webhookEndpointView,
} from "../../projections/webhooks/queries.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { claimedResourceId } from "../idempotency.ts";
import { decodeTimeCursor, encodeTimeCursor, listQuery, pageOf } from "../pagination.ts";
import { ApiProblem, notFound } from "../problems.ts";
import { assertClientExists } from "./client-exists.ts";
import type { RouteDependencies } from "./dependencies.ts";
import {
  attemptSchema,
  createEndpointBody,
  endpointSchema,
  endpointWithSecretSchema,
  redeliveryQueuedSchema,
  testMessageQueuedSchema,
  updateEndpointBody,
} from "./webhooks-schemas.ts";

export interface WebhookRouteDependencies extends RouteDependencies {
  secrets: SecretBox;
  webhookUrlPolicy: UrlPolicy;
}

const idParams = z.strictObject({ id: z.uuid() });
const tags = ["webhooks"];

/** The endpoint as a command's stream left it, answered as the read model will show it. */
const viewOfWritten = (endpoint: WebhookEndpointSnapshot): WebhookEndpointView => ({
  id: endpoint.endpointId,
  clientId: endpoint.clientId,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description,
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.occurredAt,
});

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRouteDependencies> = async (app, deps) => {
  const { db, secrets, webhookUrlPolicy } = deps;
  const context = (request: FastifyRequest): CommandContext => ({ ...deps, metadata: eventMetadataOf(request) });
  /** A written endpoint answers once the endpoints read model shows it (a bounded while). */
  const shown = async ({ endpoint, revision }: { endpoint: WebhookEndpointSnapshot; revision?: bigint }) => {
    if (revision !== undefined) await waitForWebhookEndpointWrite(deps, { endpointId: endpoint.endpointId, revision });
  };

  /** The endpoint, when the caller may see it; 404 otherwise (another client's does not exist for it). */
  async function visible(request: FastifyRequest, endpointId: string) {
    const endpoint = await findWebhookEndpoint(db, endpointId);
    if (!endpoint || !canSeeClient(principalOf(request), endpoint.clientId)) throw notFound("webhook endpoint");
    return endpoint;
  }

  async function assertAllowedUrl(url: string) {
    const verdict = await checkWebhookUrl(url, webhookUrlPolicy);
    if (!verdict.ok) {
      throw new ApiProblem("validation_error", `The webhook URL ${verdict.reason}.`, { errors: [{ path: "url", message: verdict.reason }] });
    }
  }

  app.post(
    "/webhook-endpoints",
    {
      config: { access: "any", secretResponseFields: ["secret"], createsResource: true },
      schema: {
        tags,
        operationId: "createWebhookEndpoint",
        summary: "Subscribe a URL to events",
        description: "Client keys subscribe their own client; admin keys name the client with `clientId`.",
        body: createEndpointBody,
        response: { 201: endpointWithSecretSchema },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { url, events, description = null, enabled = true } = request.body;
      let clientId: string;
      if (principal.role === "client") {
        if (request.body.clientId !== undefined && request.body.clientId !== principal.clientId) {
          throw new ApiProblem("forbidden", "A client key subscribes its own client only: leave out clientId.");
        }
        clientId = principal.clientId;
      } else {
        if (request.body.clientId === undefined) {
          throw new ApiProblem("validation_error", "An admin key must name the client the endpoint is for.", {
            errors: [{ path: "clientId", message: "is required with an admin key" }],
          });
        }
        clientId = request.body.clientId;
        await assertClientExists(db, clientId);
      }
      await assertAllowedUrl(url);
      const endpoint = { clientId, url, events, description, enabled };
      const result = await createWebhookEndpoint(context(request), secrets, claimedResourceId(request), endpoint);
      if (result.ok) await shown(result.value);
      if (!result.ok) throw new ApiProblem(result.error === "not_found" ? "not_found" : "internal_error", result.detail);
      return reply.code(201).send({ ...viewOfWritten(result.value.endpoint), secret: result.value.secret });
    },
  );

  app.get(
    "/webhook-endpoints",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listWebhookEndpoints",
        summary: "Webhook endpoints, newest first",
        description: "Client keys see their own; admin keys see every client's, or one client's with `clientId`.",
        querystring: listQuery.extend({ clientId: z.uuid().optional() }),
        response: { 200: z.object({ data: z.array(endpointSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId: askedFor, limit, cursor } = request.query;
      if (askedFor !== undefined && !canSeeClient(principal, askedFor)) return { data: [], nextCursor: null };
      const clientId = ownClientOf(principal) ?? askedFor;
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const rows = await webhookEndpointsOf(db, clientId, after, limit);
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.endpoint_id));
      return { data: page.data.map(webhookEndpointView), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/webhook-endpoints/:id",
    {
      config: { access: "any" },
      schema: { operationId: "getWebhookEndpoint", tags, summary: "A webhook endpoint (never its secret)", params: idParams, response: { 200: endpointSchema } },
    },
    async (request) => visible(request, request.params.id),
  );

  app.patch(
    "/webhook-endpoints/:id",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "updateWebhookEndpoint",
        summary: "Change a webhook endpoint's url, events, description or enabled",
        params: idParams,
        body: updateEndpointBody,
        response: { 200: endpointSchema },
      },
    },
    async (request) => {
      await visible(request, request.params.id);
      if (request.body.url !== undefined) await assertAllowedUrl(request.body.url);
      const result = await updateWebhookEndpoint(context(request), request.params.id, request.body);
      if (result.ok) await shown(result.value);
      if (!result.ok) throw notFound("webhook endpoint");
      return viewOfWritten(result.value.endpoint);
    },
  );

  app.delete(
    "/webhook-endpoints/:id",
    {
      config: { access: "any" },
      schema: { operationId: "deleteWebhookEndpoint", tags, summary: "Delete a webhook endpoint: nothing more is sent to it", params: idParams, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await visible(request, request.params.id);
      const result = await deleteWebhookEndpoint(context(request), request.params.id);
      if (result.ok) await shown(result.value);
      if (!result.ok) throw notFound("webhook endpoint");
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/webhook-endpoints/:id/rotate-secret",
    {
      config: { access: "any", secretResponseFields: ["secret"] },
      schema: {
        tags,
        operationId: "rotateWebhookEndpointSecret",
        summary: "Replace the signing secret; the previous one keeps signing beside it for 24 hours",
        params: idParams,
        body: z.strictObject({}).optional(),
        response: { 200: endpointWithSecretSchema },
      },
    },
    async (request) => {
      await visible(request, request.params.id);
      const result = await rotateWebhookSecret(context(request), secrets, request.params.id);
      if (result.ok) await shown(result.value);
      if (!result.ok) throw notFound("webhook endpoint");
      return { ...viewOfWritten(result.value.endpoint), secret: result.value.secret };
    },
  );

  app.post(
    "/webhook-endpoints/:id/test",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "testWebhookEndpoint",
        summary: "Send the endpoint one webhook.test message, signed and logged like any delivery",
        description:
          "To that endpoint alone, whatever its `events`; its attempts are listed with the deliveries. " +
          "A disabled endpoint gets it once enabled again.",
        params: idParams,
        body: z.strictObject({}).optional(),
        response: { 202: testMessageQueuedSchema },
      },
    },
    async (request, reply) => {
      const endpoint = await visible(request, request.params.id);
      const queued = await queueTestMessage(db, { endpointId: endpoint.id, clientId: endpoint.clientId }, deps.now());
      return reply.code(202).send({ ...queued, status: "pending" as const });
    },
  );

  app.get(
    "/webhook-endpoints/:id/deliveries",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listWebhookDeliveries",
        summary: "The endpoint's delivery attempts, newest first",
        params: idParams,
        querystring: listQuery,
        response: { 200: z.object({ data: z.array(attemptSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      await visible(request, request.params.id);
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const rows = await webhookAttemptsOf(db, request.params.id, after, limit);
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.attempt_id));
      return { data: page.data.map(webhookAttemptView), nextCursor: page.nextCursor };
    },
  );

  app.post(
    "/webhook-deliveries/:id/redeliver",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "redeliverWebhookDelivery",
        summary: "Send a message again (same webhook-id), with a fresh retry schedule",
        description: "Takes an attempt's `id` or its `deliveryId` from the deliveries list.",
        params: idParams,
        body: z.strictObject({}).optional(),
        response: { 202: redeliveryQueuedSchema },
      },
    },
    async (request, reply) => {
      const delivery = await findWebhookDelivery(db, request.params.id);
      if (!delivery || !canSeeClient(principalOf(request), delivery.clientId)) throw notFound("webhook delivery");
      // Purged (past WEBHOOK_LOG_RETENTION_DAYS) since it was read: there is nothing left to send.
      if (!(await redeliver(db, delivery.deliveryId))) throw notFound("webhook delivery");
      return reply.code(202).send({ deliveryId: delivery.deliveryId, status: "pending" as const });
    },
  );
};
