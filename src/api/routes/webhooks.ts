import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type Selectable, sql } from "kysely";
import { z } from "zod";
import type { CommandContext } from "../../commands/context.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "../../commands/webhook-endpoints.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import type { WebhookEndpointsTable } from "../../db/schema.ts";
import { type WebhookDisabledReason, webhookDisabledReasons, type WebhookEndpointSnapshot } from "../../domain/webhooks/endpoint.ts";
import { ALL_EVENTS, type EventSubscription, webhookEventTypes } from "../../domain/webhooks/event-types.ts";
import { checkWebhookUrl, type UrlPolicy } from "../../webhooks/destination.ts";
import { queueTestMessage } from "../../webhooks/test-message.ts";
import { waitForWebhookEndpointWrite } from "../../projections/webhooks/own-writes.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { claimedResourceId } from "../idempotency.ts";
import { decodeTimeCursor, encodeTimeCursor, listQuery, newestFirst, pageOf } from "../pagination.ts";
import { ApiProblem, notFound } from "../problems.ts";
import { assertClientExists } from "./client-exists.ts";
import type { RouteDependencies } from "./dependencies.ts";

export interface WebhookRouteDependencies extends RouteDependencies {
  secrets: SecretBox;
  webhookUrlPolicy: UrlPolicy;
}

const eventsSchema = z
  .array(z.enum([...webhookEventTypes, ALL_EVENTS]))
  .min(1)
  .max(webhookEventTypes.length + 1)
  .refine((events) => new Set(events).size === events.length, "must not repeat an event type")
  .describe(`The event types to receive, or ["*"] for all: ${webhookEventTypes.join(", ")}.`);
const urlSchema = z.string().trim().max(2048).describe("https (http only with WEBHOOK_ALLOW_HTTP); no private or loopback address.");
const descriptionSchema = z.string().trim().max(500).nullable();

const endpointSchema = z
  .object({
    id: z.uuid(),
    clientId: z.uuid(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabledReason: z
      .enum(webhookDisabledReasons)
      .nullable()
      .describe(
        "Why the service disabled the endpoint: `deliveries_failing` (every delivery failed for 3 days) or " +
          "`secret_undecryptable` (rotate the secret). Null otherwise. Enabling it again resumes delivery of what is owed.",
      ),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookEndpoint" });

const endpointWithSecretSchema = endpointSchema
  .extend({
    secret: z
      .string()
      .nullable()
      .describe("`whsec_` + base64 of 32 random bytes: shown only in this response, stored encrypted. A replay answers null."),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

const attemptSchema = z
  .object({
    id: z.uuid().describe("The attempt; `POST /v1/webhook-deliveries/{id}/redeliver` takes it."),
    deliveryId: z.uuid(),
    eventId: z.uuid().describe("The message's `webhook-id`: the same on every attempt."),
    eventType: z.string(),
    attempt: z.number().int(),
    status: z.enum(["pending", "delivered", "failed"]).describe("`pending`: it failed and a retry is due at `nextAttemptAt`."),
    responseStatus: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable().describe("Why no answer came (timeout, refused address...)."),
    nextAttemptAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDeliveryAttempt" });

const idParams = z.strictObject({ id: z.uuid() });
const tags = ["webhooks"];
type EndpointRow = Pick<Selectable<WebhookEndpointsTable>, (typeof endpointColumns)[number]>;

const viewOf = (row: EndpointRow) => ({
  id: row.endpoint_id,
  clientId: row.client_id,
  url: row.url,
  events: row.events as EventSubscription[],
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabled_reason as WebhookDisabledReason | null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** The endpoint as a command's stream left it, answered as the read model will show it. */
const viewOfWritten = (endpoint: WebhookEndpointSnapshot) => ({
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

const endpointColumns = [
  "endpoint_id",
  "client_id",
  "url",
  "events",
  "description",
  "enabled",
  "disabled_reason",
  "created_at",
  "updated_at",
] as const;

export const webhookRoutes: FastifyPluginAsyncZod<WebhookRouteDependencies> = async (app, deps) => {
  const { db, secrets, webhookUrlPolicy } = deps;
  const context = (request: FastifyRequest): CommandContext => ({ ...deps, metadata: eventMetadataOf(request) });
  /** A written endpoint answers once the endpoints read model shows it (a bounded while). */
  const shown = async ({ endpoint, revision }: { endpoint: WebhookEndpointSnapshot; revision?: bigint }) => {
    if (revision !== undefined) await waitForWebhookEndpointWrite(deps, { endpointId: endpoint.endpointId, revision });
  };

  /** The endpoint, when the caller may see it; 404 otherwise (another client's does not exist for it). */
  async function visible(request: FastifyRequest, endpointId: string) {
    const row = await db
      .selectFrom("webhook_endpoints")
      .select(endpointColumns)
      .where("endpoint_id", "=", endpointId)
      .where("deleted", "=", false)
      .executeTakeFirst();
    if (!row || !canSeeClient(principalOf(request), row.client_id)) throw notFound("webhook endpoint");
    return row;
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
        body: z.strictObject({
          url: urlSchema,
          events: eventsSchema,
          description: descriptionSchema.optional(),
          enabled: z.boolean().optional(),
          clientId: z.uuid().optional(),
        }),
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
      const endpoints = db
        .selectFrom("webhook_endpoints")
        .select(endpointColumns)
        .where("deleted", "=", false)
        .$if(clientId !== undefined, (q) => q.where("client_id", "=", clientId!));
      const rows = await newestFirst(endpoints, ["created_at", "endpoint_id"], after, limit).execute();
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.endpoint_id));
      return { data: page.data.map(viewOf), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/webhook-endpoints/:id",
    {
      config: { access: "any" },
      schema: { operationId: "getWebhookEndpoint", tags, summary: "A webhook endpoint (never its secret)", params: idParams, response: { 200: endpointSchema } },
    },
    async (request) => viewOf(await visible(request, request.params.id)),
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
        body: z
          .strictObject({ url: urlSchema, events: eventsSchema, description: descriptionSchema, enabled: z.boolean() })
          .partial(),
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
        response: {
          202: z.object({
            deliveryId: z.uuid(),
            eventId: z.uuid().describe("The message's `webhook-id`."),
            status: z.literal("pending"),
          }),
        },
      },
    },
    async (request, reply) => {
      const endpoint = await visible(request, request.params.id);
      const queued = await queueTestMessage(db, { endpointId: endpoint.endpoint_id, clientId: endpoint.client_id }, deps.now());
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
      const attempts = db
        .selectFrom("webhook_attempts as a")
        .innerJoin("webhook_deliveries as d", "d.delivery_id", "a.delivery_id")
        .select([
          "a.attempt_id",
          "a.delivery_id",
          "d.message_id",
          "d.event_type",
          "a.attempt",
          "a.status",
          "a.response_status",
          "a.duration_ms",
          "a.error",
          "a.next_attempt_at",
          "a.created_at",
        ])
        .where("a.endpoint_id", "=", request.params.id);
      const rows = await newestFirst(attempts, ["a.created_at", "a.attempt_id"], after, limit).execute();
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.attempt_id));
      return {
        data: page.data.map((row) => ({
          id: row.attempt_id,
          deliveryId: row.delivery_id,
          eventId: row.message_id,
          eventType: row.event_type,
          attempt: row.attempt,
          status: row.status,
          responseStatus: row.response_status,
          durationMs: row.duration_ms,
          error: row.error,
          nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
          createdAt: row.created_at.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
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
        response: { 202: z.object({ deliveryId: z.uuid(), status: z.literal("pending") }) },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const delivery = await db
        .selectFrom("webhook_deliveries")
        .select(["delivery_id", "client_id"])
        .where((eb) =>
          eb.or([
            eb("delivery_id", "=", id),
            eb("delivery_id", "=", eb.selectFrom("webhook_attempts").select("delivery_id").where("attempt_id", "=", id)),
          ]),
        )
        .executeTakeFirst();
      if (!delivery || !canSeeClient(principalOf(request), delivery.client_id)) throw notFound("webhook delivery");
      const redelivered = await db
        .updateTable("webhook_deliveries")
        .set({
          status: "pending",
          next_attempt_at: sql`now()`,
          round_start: sql`attempts`,
          redeliveries: sql`redeliveries + 1`,
          updated_at: sql`now()`,
        })
        .where("delivery_id", "=", delivery.delivery_id)
        .executeTakeFirst();
      // Purged (past WEBHOOK_LOG_RETENTION_DAYS) since it was read: there is nothing left to send.
      if (redelivered.numUpdatedRows === 0n) throw notFound("webhook delivery");
      return reply.code(202).send({ deliveryId: delivery.delivery_id, status: "pending" as const });
    },
  );
};
