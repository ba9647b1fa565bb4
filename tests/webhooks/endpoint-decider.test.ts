import { describe, expect, it } from "vitest";
import { asEncryptedSecret } from "../../src/domain/host-configurations/decider.ts";
import {
  type WebhookEndpointCommand,
  webhookEndpointDecider as decider,
  type WebhookEndpointEvent,
  type WebhookEndpointSnapshot,
  type WebhookEndpointState,
} from "../../src/domain/webhooks/endpoint.ts";

const created = "2026-01-01T00:00:00.000Z";
const later = "2026-01-05T00:00:00.000Z";

/** A snapshot as events recorded before `disabledReason` existed hold it. */
const { disabledReason: _absent, ...oldSnapshot }: WebhookEndpointSnapshot = {
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
const oldEvent = { type: "WebhookEndpointCreated.v1", data: oldSnapshot } as WebhookEndpointEvent;

const fold = (events: WebhookEndpointEvent[]) => events.reduce(decider.evolve, decider.initialState());
const present = (state: WebhookEndpointState) => {
  if (state.status !== "present") throw new Error(`expected a present endpoint, got ${state.status}`);
  return state.endpoint;
};
const decided = (command: WebhookEndpointCommand, state: WebhookEndpointState) => {
  const decision = decider.decide(command, state);
  if (!decision.ok) throw new Error(decision.detail);
  return decision.events;
};
const disable = (unchangedSince = created): WebhookEndpointCommand => ({
  type: "DisableWebhookEndpoint",
  reason: "deliveries_failing",
  unchangedSince,
  now: later,
});

describe("the webhook endpoint decider", () => {
  it("folds a stream recorded before endpoints could be disabled: no reason", () => {
    expect(present(fold([oldEvent]))).toMatchObject({ enabled: true, disabledReason: null });
  });

  it("disables an endpoint unchanged since it was judged, once, with the reason", () => {
    const state = fold([oldEvent]);
    const [disabled] = decided(disable(), state);
    expect(disabled).toMatchObject({ type: "WebhookEndpointDisabled.v1", data: { enabled: false, disabledReason: "deliveries_failing", occurredAt: later } });
    expect(decided(disable(), fold([oldEvent, disabled!]))).toEqual([]);
  });

  it("leaves an endpoint changed since it was judged as it is", () => {
    expect(decided(disable("2025-12-31T23:59:59.000Z"), fold([oldEvent]))).toEqual([]);
  });

  it("keeps the reason while the endpoint stays disabled, and clears it when the client enables or disables it", () => {
    const [disabled] = decided(disable(), fold([oldEvent]));
    const state = fold([oldEvent, disabled!]);
    const [described] = decided({ type: "UpdateWebhookEndpoint", changes: { description: "orders" }, now: later }, state);
    expect(described!.data).toMatchObject({ enabled: false, disabledReason: "deliveries_failing" });
    const [enabled] = decided({ type: "UpdateWebhookEndpoint", changes: { enabled: true }, now: later }, state);
    expect(enabled!.data).toMatchObject({ enabled: true, disabledReason: null });
    const [keptOff] = decided({ type: "UpdateWebhookEndpoint", changes: { enabled: false }, now: later }, state);
    expect(keptOff!.data).toMatchObject({ enabled: false, disabledReason: null });
  });
});
