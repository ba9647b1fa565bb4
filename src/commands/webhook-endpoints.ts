import type { SecretBox } from "../crypto/secrets.ts";
import { asEncryptedSecret } from "../domain/host-configurations/decider.ts";
import {
  type WebhookEndpointChanges,
  type WebhookEndpointCommand,
  type WebhookDisabledReason,
  type WebhookEndpointFailure,
  type WebhookEndpointSnapshot,
} from "../domain/webhooks/endpoint.ts";
import type { EventSubscription } from "../domain/webhooks/event-types.ts";
import { generateWebhookSecret } from "../webhooks/signature.ts";
import type { CommandContext, CommandResult } from "./context.ts";
import { webhookEndpoints } from "./streams.ts";

/** What an endpoint's signing secret is bound to: moved to another endpoint, it does not decrypt. */
export const webhookSecretContext = (endpointId: string) => `webhook-endpoint/${endpointId}/secret`;

export interface NewWebhookEndpoint {
  clientId: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
}

/**
 * The endpoint as its stream has it after the write: the answer, whether or not the read model has
 * caught up; `revision`: where its stream stood, when the command appended.
 */
type Written = { endpoint: WebhookEndpointSnapshot; changed: boolean; revision?: bigint };

async function run(
  context: CommandContext,
  endpointId: string,
  command: WebhookEndpointCommand,
): Promise<CommandResult<Written, WebhookEndpointFailure>> {
  const result = await webhookEndpoints.handle(context, endpointId, command);
  if (!result.ok) return result;
  if (result.state.status === "absent") throw new Error("a webhook endpoint command left no endpoint");
  const { endpoint } = result.state;
  if (!result.tip || result.events.length === 0) return { ok: true, value: { endpoint, changed: false } };
  return { ok: true, value: { endpoint, changed: true, revision: result.tip.revision } };
}

/**
 * A new endpoint under `endpointId`, the id its request's Idempotency-Key was claimed for, and its
 * signing secret: returned this once and stored only encrypted. A retry after a request that died
 * once the endpoint was recorded answers that endpoint and its secret (that request's answer never
 * came), never a second endpoint that would get every event twice; `not_found` once that endpoint
 * has been deleted.
 */
export async function createWebhookEndpoint(context: CommandContext, secrets: SecretBox, endpointId: string, endpoint: NewWebhookEndpoint) {
  const secret = generateWebhookSecret();
  const result = await run(context, endpointId, {
    type: "CreateWebhookEndpoint",
    endpoint: { endpointId, ...endpoint, secret: asEncryptedSecret(secrets.encrypt(secret, webhookSecretContext(endpointId))) },
    now: context.now().toISOString(),
  });
  if (result.ok) return { ...result, value: { ...result.value, secret } };
  if (result.error !== "already_exists") return result;
  const { state, tip } = await webhookEndpoints.read(context, endpointId);
  if (state.status === "absent" || state.endpoint.clientId !== endpoint.clientId) return result;
  if (state.status === "deleted") {
    return { ok: false as const, error: "not_found" as const, detail: "The webhook endpoint this Idempotency-Key created has been deleted since." };
  }
  const created = { endpoint: state.endpoint, changed: false, ...(tip && { revision: tip.revision }) };
  return { ok: true as const, value: { ...created, secret: secrets.decrypt(state.endpoint.secret, webhookSecretContext(endpointId)) } };
}

export const updateWebhookEndpoint = (context: CommandContext, endpointId: string, changes: WebhookEndpointChanges) =>
  run(context, endpointId, { type: "UpdateWebhookEndpoint", changes, now: context.now().toISOString() });

/**
 * The service disables an endpoint it judged unusable as it stood at `unchangedSince`; `changed`
 * is false when it was disabled already, or changed since (judged again at its next attempt).
 */
export const disableWebhookEndpoint = (
  context: CommandContext,
  endpointId: string,
  reason: WebhookDisabledReason,
  unchangedSince: Date,
) =>
  run(context, endpointId, {
    type: "DisableWebhookEndpoint",
    reason,
    unchangedSince: unchangedSince.toISOString(),
    now: context.now().toISOString(),
  });

export const deleteWebhookEndpoint = (context: CommandContext, endpointId: string) =>
  run(context, endpointId, { type: "DeleteWebhookEndpoint", now: context.now().toISOString() });

/** A new signing secret; the previous one keeps signing beside it for 24 hours. */
export async function rotateWebhookSecret(context: CommandContext, secrets: SecretBox, endpointId: string) {
  const secret = generateWebhookSecret();
  const result = await run(context, endpointId, {
    type: "RotateWebhookSecret",
    secret: asEncryptedSecret(secrets.encrypt(secret, webhookSecretContext(endpointId))),
    now: context.now().toISOString(),
  });
  return result.ok ? { ...result, value: { ...result.value, secret } } : result;
}
