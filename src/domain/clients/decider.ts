import { accept, type Decider, eventGuard, reject } from "../decider.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { CurrencyLimit } from "../limits/limits.ts";

export type ClientEvent =
  | { type: "ClientRegistered.v1"; data: { clientId: string; name: string; occurredAt: string } }
  /**
   * `prefix`: the key's first characters, to tell keys apart in lists; absent on keys issued before
   * it was kept. `name`: what its admin called it; absent when unnamed, and on keys issued before names.
   */
  | { type: "ApiKeyIssued.v1"; data: { keyId: string; keyHash: string; prefix?: string; name?: string; occurredAt: string } }
  | { type: "ApiKeyRevoked.v1"; data: { keyId: string; occurredAt: string } }
  /** Replaces all of the client's limits. */
  | { type: "ClientLimitsSet.v1"; data: { limits: CurrencyLimit[]; occurredAt: string } }
  /** The configuration a payment of `processor` runs on when it names none. */
  | DefaultHostConfigurationChosen;

export type DefaultHostConfigurationChosen = {
  type: "DefaultHostConfigurationChosen.v1";
  data: { processor: Processor; hostConfigurationId: string; occurredAt: string };
};

export type ClientCommand =
  | { type: "RegisterClient"; clientId: string; name: string; now: string }
  | { type: "IssueApiKey"; keyId: string; keyHash: string; prefix: string; name: string | undefined; now: string }
  | { type: "RevokeApiKey"; keyId: string; now: string }
  | { type: "SetLimits"; limits: CurrencyLimit[]; now: string }
  /** Makes the configuration the default for its processor, replacing any other. */
  | { type: "ChooseDefaultHostConfiguration"; processor: Processor; hostConfigurationId: string; now: string }
  /**
   * Makes the configuration the default only while the processor has none: of concurrent
   * first choices, the first recorded stands and the others record nothing.
   */
  | { type: "ChooseDefaultHostConfigurationIfNone"; processor: Processor; hostConfigurationId: string; now: string };

export type ClientFailure = "already_exists" | "not_found";

export interface ClientState {
  registered: boolean;
  /** Issued keys: when each was issued, its name if it has one, and whether it is revoked. */
  keys: Map<string, { issuedAt: string; name: string | null; revoked: boolean }>;
  /** The default host configuration's id per processor, where one was chosen. */
  defaultHostConfigurations: Map<Processor, string>;
}

export const clientStreamId = (clientId: string) => `client-${clientId}`;
export const clientIdOfStream = (streamId: string) => streamId.replace(/^client-/, "");

export const clientDecider: Decider<ClientState, ClientCommand, ClientEvent, ClientFailure> = {
  initialState: () => ({ registered: false, keys: new Map(), defaultHostConfigurations: new Map() }),
  isEvent: eventGuard<ClientEvent>([
    "ClientRegistered.v1",
    "ApiKeyIssued.v1",
    "ApiKeyRevoked.v1",
    "ClientLimitsSet.v1",
    "DefaultHostConfigurationChosen.v1",
  ]),

  evolve(state, event) {
    switch (event.type) {
      case "ClientRegistered.v1":
        return { ...state, registered: true };
      case "ApiKeyIssued.v1":
        return {
          ...state,
          keys: new Map(state.keys).set(event.data.keyId, { issuedAt: event.data.occurredAt, name: event.data.name ?? null, revoked: false }),
        };
      case "ApiKeyRevoked.v1": {
        const key = state.keys.get(event.data.keyId);
        return key ? { ...state, keys: new Map(state.keys).set(event.data.keyId, { ...key, revoked: true }) } : state;
      }
      case "ClientLimitsSet.v1":
        return state;
      case "DefaultHostConfigurationChosen.v1":
        return {
          ...state,
          defaultHostConfigurations: new Map(state.defaultHostConfigurations).set(
            event.data.processor,
            event.data.hostConfigurationId,
          ),
        };
    }
  },

  decide(command, state) {
    if (command.type === "RegisterClient") {
      if (state.registered) return reject("already_exists", "The client already exists.");
      return accept({
        type: "ClientRegistered.v1",
        data: { clientId: command.clientId, name: command.name, occurredAt: command.now },
      });
    }
    if (!state.registered) return reject("not_found", "No such client.");
    switch (command.type) {
      case "IssueApiKey":
        // The id its request's Idempotency-Key was claimed for: a retry issues no second key.
        if (state.keys.has(command.keyId)) return reject("already_exists", "The API key already exists.");
        return accept({
          type: "ApiKeyIssued.v1",
          data: {
            keyId: command.keyId,
            keyHash: command.keyHash,
            prefix: command.prefix,
            ...(command.name !== undefined && { name: command.name }),
            occurredAt: command.now,
          },
        });
      case "SetLimits":
        return accept({ type: "ClientLimitsSet.v1", data: { limits: command.limits, occurredAt: command.now } });
      case "RevokeApiKey": {
        const key = state.keys.get(command.keyId);
        if (!key) return reject("not_found", "No such API key.");
        // Revoking twice is not an error and records nothing new.
        if (key.revoked) return accept();
        return accept({ type: "ApiKeyRevoked.v1", data: { keyId: command.keyId, occurredAt: command.now } });
      }
      case "ChooseDefaultHostConfiguration":
      case "ChooseDefaultHostConfigurationIfNone": {
        const current = state.defaultHostConfigurations.get(command.processor);
        // Choosing the current default again, or a first choice once one is made, records nothing.
        if (current === command.hostConfigurationId) return accept();
        if (current !== undefined && command.type === "ChooseDefaultHostConfigurationIfNone") return accept();
        return accept({
          type: "DefaultHostConfigurationChosen.v1",
          data: { processor: command.processor, hostConfigurationId: command.hostConfigurationId, occurredAt: command.now },
        });
      }
    }
  },
};
