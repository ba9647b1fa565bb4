/** What a webhook endpoint can subscribe to; `*` stands for all of them. */
export const webhookEventTypes = [
  "transaction.pending",
  "transaction.approved",
  "transaction.declined",
  "transaction.failed",
  /** A transaction's `state` changed, or it was settled, because of a later transaction or the batch. */
  "transaction.updated",
  "authorization.expired",
  "settlement.closed",
  "settlement.mismatched",
  /** Sent only when asked for (POST /v1/webhook-endpoints/{id}/test), to that endpoint alone. */
  "webhook.test",
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const ALL_EVENTS = "*";
export type EventSubscription = WebhookEventType | typeof ALL_EVENTS;

export const subscribes = (events: readonly EventSubscription[], type: WebhookEventType) =>
  events.includes(ALL_EVENTS) || events.includes(type);
