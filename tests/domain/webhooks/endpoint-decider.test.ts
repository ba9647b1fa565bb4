import { describe, expect, it } from "vitest";
import { fold } from "../../../src/domain/decider.ts";
import { asEncryptedSecret } from "../../../src/domain/host-configurations/decider.ts";
import {
  PREVIOUS_SECRET_VALID_MS,
  type WebhookEndpointCommand,
  webhookEndpointDecider as decider,
  type WebhookEndpointEvent,
  type WebhookEndpointSnapshot,
} from "../../../src/domain/webhooks/endpoint.ts";
import { deciderSpec } from "../../support/decider-spec.ts";

const created = "2026-01-01T00:00:00.000Z";
const later = "2026-01-05T00:00:00.000Z";

const endpoint: WebhookEndpointSnapshot = {
  endpointId: "0197a3c6-7f86-7097-81a8-1c2d3e4f5a6b",
  clientId: "0197a3c6-7f86-7097-81a8-1c2d3e4f5a6c",
  url: "https://shop.example/hooks",
  events: ["*"],
  description: null,
  enabled: true,
  disabledReason: null,
  secret: asEncryptedSecret("v2.test.a.b"),
  previousSecret: null,
  previousSecretExpiresAt: null,
  createdAt: created,
  occurredAt: created,
};
const createdEvent: WebhookEndpointEvent = { type: "WebhookEndpointCreated.v1", data: endpoint };
/** A snapshot as events recorded before `disabledReason` existed hold it. */
const { disabledReason: _absent, ...oldSnapshot } = endpoint;
const oldEvent = { type: "WebhookEndpointCreated.v1", data: oldSnapshot } as WebhookEndpointEvent;

/** The endpoint as of `later`, changed so. */
const changed = (type: WebhookEndpointEvent["type"], changes: Partial<WebhookEndpointSnapshot>): WebhookEndpointEvent =>
  ({ type, data: { ...endpoint, ...changes, occurredAt: later } });
const disabled = changed("WebhookEndpointDisabled.v1", { enabled: false, disabledReason: "deliveries_failing" });

const update = (changes: Extract<WebhookEndpointCommand, { type: "UpdateWebhookEndpoint" }>["changes"]): WebhookEndpointCommand => ({
  type: "UpdateWebhookEndpoint",
  changes,
  now: later,
});
const disable = (unchangedSince = created): WebhookEndpointCommand => ({
  type: "DisableWebhookEndpoint",
  reason: "deliveries_failing",
  unchangedSince,
  now: later,
});
const newSecret = asEncryptedSecret("v2.test.c.d");

const { given } = deciderSpec(decider);

describe("the webhook endpoint decider", () => {
  it("creates an endpoint once, enabled by no service judgement and with no previous secret", () => {
    const { disabledReason: _none, previousSecret: _p, previousSecretExpiresAt: _e, createdAt: _c, occurredAt: _o, ...asked } = endpoint;
    given([]).when({ type: "CreateWebhookEndpoint", endpoint: asked, now: created }).then([createdEvent]);
    given([createdEvent]).when({ type: "CreateWebhookEndpoint", endpoint: asked, now: later }).thenRefused("already_exists");
  });

  it("folds a stream recorded before endpoints could be disabled: no reason", () => {
    expect(fold(decider, [oldEvent])).toEqual({ status: "present", endpoint });
  });

  it("rotates the secret, the previous one signing for a day more", () => {
    const expiresAt = new Date(Date.parse(later) + PREVIOUS_SECRET_VALID_MS).toISOString();
    given([createdEvent])
      .when({ type: "RotateWebhookSecret", secret: newSecret, now: later })
      .then([changed("WebhookEndpointSecretRotated.v1", { secret: newSecret, previousSecret: endpoint.secret, previousSecretExpiresAt: expiresAt })]);
  });

  it("disables an endpoint unchanged since it was judged, once, with the reason", () => {
    given([oldEvent]).when(disable()).then([disabled]);
    given([oldEvent, disabled]).when(disable()).thenNothing();
  });

  it("leaves an endpoint changed since it was judged as it is", () => {
    given([oldEvent]).when(disable("2025-12-31T23:59:59.000Z")).thenNothing();
  });

  it("keeps the reason while the endpoint stays disabled, and clears it when the client enables or disables it", () => {
    given([oldEvent, disabled])
      .when(update({ description: "orders" }))
      .then([changed("WebhookEndpointUpdated.v1", { description: "orders", enabled: false, disabledReason: "deliveries_failing" })]);
    given([oldEvent, disabled]).when(update({ enabled: true })).then([changed("WebhookEndpointUpdated.v1", { enabled: true, disabledReason: null })]);
    given([oldEvent, disabled]).when(update({ enabled: false })).then([changed("WebhookEndpointUpdated.v1", { enabled: false, disabledReason: null })]);
  });

  it("deletes an endpoint, which is then no longer there to change", () => {
    const deleted = changed("WebhookEndpointDeleted.v1", {});
    given([createdEvent]).when({ type: "DeleteWebhookEndpoint", now: later }).then([deleted]);
    given([createdEvent, deleted]).when(update({ url: "https://shop.example/other" })).thenRefused("not_found");
    given([createdEvent, deleted]).when({ type: "DeleteWebhookEndpoint", now: later }).thenRefused("not_found");
    given([]).when({ type: "RotateWebhookSecret", secret: newSecret, now: later }).thenRefused("not_found");
  });
});
