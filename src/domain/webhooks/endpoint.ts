import { accept, type Decider, eventGuard, reject } from "../decider.ts";
import type { EncryptedSecret } from "../host-configurations/decider.ts";
import type { EventSubscription } from "./event-types.ts";

export const webhookEndpointStreamId = (endpointId: string) => `webhook-endpoint-${endpointId}`;

/** After a rotation the previous secret still signs, beside the new one, for this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** Why the service disabled an endpoint on its own (a client's own `enabled: false` has none). */
export const webhookDisabledReasons = ["deliveries_failing", "secret_undecryptable"] as const;
export type WebhookDisabledReason = (typeof webhookDisabledReasons)[number];

/** The whole endpoint as of one event: every event is a complete snapshot, its secrets encrypted. */
export type WebhookEndpointSnapshot = {
  endpointId: string;
  clientId: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
  /** Set while the service, not the client, has the endpoint disabled. */
  disabledReason: WebhookDisabledReason | null;
  secret: EncryptedSecret;
  /** The secret before the last rotation, signing too until `previousSecretExpiresAt`. */
  previousSecret: EncryptedSecret | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  occurredAt: string;
};

export type WebhookEndpointEvent =
  | { type: "WebhookEndpointCreated.v1"; data: WebhookEndpointSnapshot }
  | { type: "WebhookEndpointUpdated.v1"; data: WebhookEndpointSnapshot }
  | { type: "WebhookEndpointSecretRotated.v1"; data: WebhookEndpointSnapshot }
  | { type: "WebhookEndpointDisabled.v1"; data: WebhookEndpointSnapshot }
  | { type: "WebhookEndpointDeleted.v1"; data: WebhookEndpointSnapshot };

export const webhookEndpointEventTypes = [
  "WebhookEndpointCreated.v1",
  "WebhookEndpointUpdated.v1",
  "WebhookEndpointSecretRotated.v1",
  "WebhookEndpointDisabled.v1",
  "WebhookEndpointDeleted.v1",
] as const satisfies readonly WebhookEndpointEvent["type"][];

/** A snapshot as stored: those recorded before endpoints could be disabled by the service lack `disabledReason`. */
export const upcastSnapshot = (data: WebhookEndpointSnapshot): WebhookEndpointSnapshot => ({
  ...data,
  disabledReason: data.disabledReason ?? null,
});

export type WebhookEndpointChanges = Partial<Pick<WebhookEndpointSnapshot, "url" | "events" | "description" | "enabled">>;

export type WebhookEndpointCommand =
  | {
      type: "CreateWebhookEndpoint";
      endpoint: Omit<WebhookEndpointSnapshot, "disabledReason" | "previousSecret" | "previousSecretExpiresAt" | "createdAt" | "occurredAt">;
      now: string;
    }
  | { type: "UpdateWebhookEndpoint"; changes: WebhookEndpointChanges; now: string }
  | { type: "RotateWebhookSecret"; secret: EncryptedSecret; now: string }
  /**
   * The service's own: `unchangedSince` is the endpoint's last change as the judgement saw it, so
   * an endpoint changed meanwhile (a new secret, enabled again) is judged afresh, not disabled.
   */
  | { type: "DisableWebhookEndpoint"; reason: WebhookDisabledReason; unchangedSince: string; now: string }
  | { type: "DeleteWebhookEndpoint"; now: string };

export type WebhookEndpointFailure = "already_exists" | "not_found";

export type WebhookEndpointState =
  | { status: "absent" }
  | { status: "deleted"; endpoint: WebhookEndpointSnapshot }
  | { status: "present"; endpoint: WebhookEndpointSnapshot };

export const webhookEndpointDecider: Decider<
  WebhookEndpointState,
  WebhookEndpointCommand,
  WebhookEndpointEvent,
  WebhookEndpointFailure
> = {
  initialState: () => ({ status: "absent" }),
  isEvent: eventGuard<WebhookEndpointEvent>(webhookEndpointEventTypes),
  evolve: (_state, event) =>
    event.type === "WebhookEndpointDeleted.v1"
      ? { status: "deleted", endpoint: upcastSnapshot(event.data) }
      : { status: "present", endpoint: upcastSnapshot(event.data) },
  decide(command, state) {
    if (command.type === "CreateWebhookEndpoint") {
      if (state.status !== "absent") return reject("already_exists", "The webhook endpoint exists already.");
      return accept({
        type: "WebhookEndpointCreated.v1",
        data: {
          ...command.endpoint,
          disabledReason: null,
          previousSecret: null,
          previousSecretExpiresAt: null,
          createdAt: command.now,
          occurredAt: command.now,
        },
      });
    }
    if (state.status !== "present") return reject("not_found", "No such webhook endpoint.");
    const current = { ...state.endpoint, occurredAt: command.now };
    switch (command.type) {
      case "UpdateWebhookEndpoint": {
        // The reason stands while the endpoint stays disabled; enabling or disabling it is the client's choice.
        const disabledReason = command.changes.enabled === undefined ? current.disabledReason : null;
        return accept({ type: "WebhookEndpointUpdated.v1", data: { ...current, ...command.changes, disabledReason } });
      }
      case "RotateWebhookSecret": {
        const expiresAt = new Date(Date.parse(command.now) + PREVIOUS_SECRET_VALID_MS).toISOString();
        return accept({
          type: "WebhookEndpointSecretRotated.v1",
          data: { ...current, secret: command.secret, previousSecret: state.endpoint.secret, previousSecretExpiresAt: expiresAt },
        });
      }
      case "DisableWebhookEndpoint":
        if (!state.endpoint.enabled || Date.parse(state.endpoint.occurredAt) !== Date.parse(command.unchangedSince)) return accept();
        return accept({ type: "WebhookEndpointDisabled.v1", data: { ...current, enabled: false, disabledReason: command.reason } });
      case "DeleteWebhookEndpoint":
        return accept({ type: "WebhookEndpointDeleted.v1", data: current });
    }
  },
};
