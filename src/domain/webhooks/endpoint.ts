import { accept, type Decider, reject } from "../decider.ts";
import type { EncryptedSecret } from "../host-configurations/decider.ts";
import type { EventSubscription } from "./event-types.ts";

export const webhookEndpointStreamId = (endpointId: string) => `webhook-endpoint-${endpointId}`;

/** After a rotation the previous secret still signs, beside the new one, for this long. */
export const PREVIOUS_SECRET_VALID_MS = 24 * 60 * 60 * 1000;

/** The whole endpoint as of one event: every event is a complete snapshot, its secrets encrypted. */
export type WebhookEndpointSnapshot = {
  endpointId: string;
  clientId: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
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
  | { type: "WebhookEndpointDeleted.v1"; data: WebhookEndpointSnapshot };

export const webhookEndpointEventTypes = [
  "WebhookEndpointCreated.v1",
  "WebhookEndpointUpdated.v1",
  "WebhookEndpointSecretRotated.v1",
  "WebhookEndpointDeleted.v1",
] as const satisfies readonly WebhookEndpointEvent["type"][];

export type WebhookEndpointChanges = Partial<Pick<WebhookEndpointSnapshot, "url" | "events" | "description" | "enabled">>;

export type WebhookEndpointCommand =
  | {
      type: "CreateWebhookEndpoint";
      endpoint: Omit<WebhookEndpointSnapshot, "previousSecret" | "previousSecretExpiresAt" | "createdAt" | "occurredAt">;
      now: string;
    }
  | { type: "UpdateWebhookEndpoint"; changes: WebhookEndpointChanges; now: string }
  | { type: "RotateWebhookSecret"; secret: EncryptedSecret; now: string }
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
  evolve: (_state, event) =>
    event.type === "WebhookEndpointDeleted.v1"
      ? { status: "deleted", endpoint: event.data }
      : { status: "present", endpoint: event.data },
  decide(command, state) {
    if (command.type === "CreateWebhookEndpoint") {
      if (state.status !== "absent") return reject("already_exists", "The webhook endpoint exists already.");
      return accept({
        type: "WebhookEndpointCreated.v1",
        data: {
          ...command.endpoint,
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
      case "UpdateWebhookEndpoint":
        return accept({ type: "WebhookEndpointUpdated.v1", data: { ...current, ...command.changes } });
      case "RotateWebhookSecret": {
        const expiresAt = new Date(Date.parse(command.now) + PREVIOUS_SECRET_VALID_MS).toISOString();
        return accept({
          type: "WebhookEndpointSecretRotated.v1",
          data: { ...current, secret: command.secret, previousSecret: state.endpoint.secret, previousSecretExpiresAt: expiresAt },
        });
      }
      case "DeleteWebhookEndpoint":
        return accept({ type: "WebhookEndpointDeleted.v1", data: current });
    }
  },
};
