import { accept, type Decider, eventGuard, reject } from "../decider.ts";
import type { HostConfigurationFields, Processor, ProcessorConfiguration } from "./schemas.ts";

/** Credentials as ciphertext, never plaintext: the domain stores and compares it, never opens it. */
export type EncryptedSecret = string & { readonly __brand: "EncryptedSecret" };
export const asEncryptedSecret = (ciphertext: string): EncryptedSecret => ciphertext as EncryptedSecret;

export const hostConfigurationStreamId = (hostConfigurationId: string) => `host-configuration-${hostConfigurationId}`;

// --- events ----------------------------------------------------------------------------------

/** The whole configuration as of one version: every event is a complete snapshot. */
export type HostConfigurationSnapshot = ProcessorConfiguration & {
  hostConfigurationId: string;
  version: number;
  /** `null` when the processor has no credentials. */
  credentials: EncryptedSecret | null;
  occurredAt: string;
};

export type HostConfigurationCreated = { type: "HostConfigurationCreated.v1"; data: HostConfigurationSnapshot };
export type HostConfigurationUpdated = {
  type: "HostConfigurationUpdated.v1";
  /** `credentialsChanged` is false when the update kept the stored credentials. */
  data: HostConfigurationSnapshot & { credentialsChanged: boolean };
};
export type HostConfigurationEvent = HostConfigurationCreated | HostConfigurationUpdated;

export const hostConfigurationEventTypes = [
  "HostConfigurationCreated.v1",
  "HostConfigurationUpdated.v1",
] as const satisfies readonly HostConfigurationEvent["type"][];

// --- commands --------------------------------------------------------------------------------

export type CreateHostConfiguration = ProcessorConfiguration & {
  type: "CreateHostConfiguration";
  hostConfigurationId: string;
  /** `null` for a processor without credentials. */
  credentials: EncryptedSecret | null;
  now: string;
};

/** Full replacement. */
export type UpdateHostConfiguration = ProcessorConfiguration & {
  type: "UpdateHostConfiguration";
  hostConfigurationId: string;
  /** `undefined` keeps the stored credentials. */
  credentials?: EncryptedSecret | undefined;
  /** From `If-Match`; `undefined` updates whatever the current version is. */
  expectedVersion?: number | undefined;
  now: string;
};

export type HostConfigurationCommand = CreateHostConfiguration | UpdateHostConfiguration;

/**
 * `processor_mismatch`: the id belongs to another processor (the API answers 404).
 * `client_mismatch`: an update tried to move the configuration to another client.
 */
export type HostConfigurationFailure =
  | "already_exists"
  | "not_found"
  | "version_conflict"
  | "processor_mismatch"
  | "client_mismatch";

// --- state -----------------------------------------------------------------------------------

export type HostConfigurationState =
  | { status: "absent" }
  | {
      status: "present";
      hostConfigurationId: string;
      version: number;
      createdAt: string;
      updatedAt: string;
      credentials: EncryptedSecret | null;
      current: ProcessorConfiguration;
    };

/**
 * Copies only the configuration fields, so a caller that passes a whole request body (with its
 * plaintext `credentials`) cannot get secrets into an event.
 */
function configurationOf(source: ProcessorConfiguration): ProcessorConfiguration {
  const { clientId, name, enabled, merchant, company, settings, customProperties } = source.configuration;
  // The processor and its configuration come from one tagged value, so they still match.
  return {
    processor: source.processor,
    configuration: { clientId, name, enabled, merchant, company, settings, customProperties },
  } as ProcessorConfiguration;
}

export const initialState = (): HostConfigurationState => ({ status: "absent" });

export function evolve(state: HostConfigurationState, event: HostConfigurationEvent): HostConfigurationState {
  switch (event.type) {
    case "HostConfigurationCreated.v1":
      return {
        status: "present",
        hostConfigurationId: event.data.hostConfigurationId,
        version: event.data.version,
        createdAt: event.data.occurredAt,
        updatedAt: event.data.occurredAt,
        credentials: event.data.credentials,
        current: configurationOf(event.data),
      };
    case "HostConfigurationUpdated.v1":
      if (state.status === "absent") return state;
      return {
        ...state,
        version: event.data.version,
        updatedAt: event.data.occurredAt,
        credentials: event.data.credentials,
        current: configurationOf(event.data),
      };
  }
}

export function decide(
  command: HostConfigurationCommand,
  state: HostConfigurationState,
): ReturnType<HostConfigurationDecider["decide"]> {
  if (command.type === "CreateHostConfiguration") {
    if (state.status === "present") return reject("already_exists", "The host configuration already exists.");
    return accept<HostConfigurationEvent>({
      type: "HostConfigurationCreated.v1",
      data: {
        hostConfigurationId: command.hostConfigurationId,
        ...configurationOf(command),
        version: 1,
        credentials: command.credentials,
        occurredAt: command.now,
      },
    });
  }

  if (state.status === "absent") return reject("not_found", "No such host configuration.");
  if (state.current.processor !== command.processor) {
    return reject("processor_mismatch", `The host configuration belongs to ${state.current.processor}.`);
  }
  if (command.expectedVersion !== undefined && command.expectedVersion !== state.version) {
    return reject(
      "version_conflict",
      `Expected version ${command.expectedVersion}, but the current version is ${state.version}.`,
    );
  }
  if (state.current.configuration.clientId !== command.configuration.clientId) {
    return reject("client_mismatch", "A host configuration cannot move to another client.");
  }
  return accept<HostConfigurationEvent>({
    type: "HostConfigurationUpdated.v1",
    data: {
      hostConfigurationId: state.hostConfigurationId,
      ...configurationOf(command),
      version: state.version + 1,
      credentials: command.credentials ?? state.credentials,
      credentialsChanged: command.credentials !== undefined,
      occurredAt: command.now,
    },
  });
}

type HostConfigurationDecider = Decider<
  HostConfigurationState,
  HostConfigurationCommand,
  HostConfigurationEvent,
  HostConfigurationFailure
>;

export const hostConfigurationDecider: HostConfigurationDecider = {
  initialState,
  evolve,
  decide,
  isEvent: eventGuard<HostConfigurationEvent>(hostConfigurationEventTypes),
};

// --- read side -------------------------------------------------------------------------------

/** The API response: everything sent but the secrets, which only say whether they are stored. */
export type HostConfigurationView = {
  id: string;
  processor: Processor;
} & HostConfigurationFields & {
    credentials: { configured: boolean };
    version: number;
    createdAt: string;
    updatedAt: string;
  };

export function toView(state: HostConfigurationState): HostConfigurationView | null {
  if (state.status === "absent") return null;
  return {
    id: state.hostConfigurationId,
    processor: state.current.processor,
    ...state.current.configuration,
    credentials: { configured: state.credentials !== null },
    version: state.version,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

/** Every version of one configuration, oldest first. */
export function versions(events: readonly HostConfigurationEvent[]): HostConfigurationView[] {
  const views: HostConfigurationView[] = [];
  let state = initialState();
  for (const event of events) {
    state = evolve(state, event);
    const view = toView(state);
    if (view) views.push(view);
  }
  return views;
}
