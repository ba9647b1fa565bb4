import { z } from "zod";
import { webhookDisabledReasons } from "../../domain/webhooks/endpoint.ts";
import { ALL_EVENTS, webhookEventTypes } from "../../domain/webhooks/event-types.ts";

/** The request and answer bodies of the webhook routes (`webhooks.ts`). */

const eventsSchema = z
  .array(z.enum([...webhookEventTypes, ALL_EVENTS]))
  .min(1)
  .max(webhookEventTypes.length + 1)
  .refine((events) => new Set(events).size === events.length, "must not repeat an event type")
  .describe(`The event types to receive, or ["*"] for all: ${webhookEventTypes.join(", ")}.`);
const urlSchema = z.string().trim().max(2048).describe("https (http only with WEBHOOK_ALLOW_HTTP); no private or loopback address.");
const descriptionSchema = z.string().trim().max(500).nullable();

export const createEndpointBody = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.optional(),
  enabled: z.boolean().optional(),
  clientId: z.uuid().optional(),
});

export const updateEndpointBody = z
  .strictObject({ url: urlSchema, events: eventsSchema, description: descriptionSchema, enabled: z.boolean() })
  .partial();

export const endpointSchema = z
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

export const endpointWithSecretSchema = endpointSchema
  .extend({
    secret: z
      .string()
      .nullable()
      .describe("`whsec_` + base64 of 32 random bytes: shown only in this response, stored encrypted. A replay answers null."),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const attemptSchema = z
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

export const testMessageQueuedSchema = z.object({
  deliveryId: z.uuid(),
  eventId: z.uuid().describe("The message's `webhook-id`."),
  status: z.literal("pending"),
});

export const redeliveryQueuedSchema = z.object({ deliveryId: z.uuid(), status: z.literal("pending") });
