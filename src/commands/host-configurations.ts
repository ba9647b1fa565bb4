import type { SecretBox } from "../crypto/secrets.ts";
import type { ClientCommand, ClientState } from "../domain/clients/decider.ts";
import {
  asEncryptedSecret,
  type HostConfigurationFailure,
  type HostConfigurationCommand,
  type HostConfigurationView,
  toView,
} from "../domain/host-configurations/decider.ts";
import type { Processor, ProcessorConfiguration } from "../domain/host-configurations/schemas.ts";
import type { Secret } from "../domain/secret.ts";
import type { JsonObject } from "../eventstore/port.ts";
import type { CommandContext, CommandResult } from "./context.ts";
import type { KnownStream } from "./execute.ts";
import { clients, hostConfigurations } from "./streams.ts";

export interface HostConfigurationInput {
  processor: Processor;
  /** Everything but the credentials, already validated against the processor's schema. */
  configuration: ProcessorConfiguration["configuration"];
  /** Encrypted here before it reaches an event. `undefined` on update keeps the stored ones. */
  credentials: Secret<JsonObject> | undefined;
}

/**
 * The configuration as its stream has it after the write: the answer, whether or not the read
 * model has caught up; `revision`: where its stream stood, when the command appended.
 */
type Written = { view: HostConfigurationView; revision?: bigint };

/** A default recorded in the client's stream, up to `revision`. */
export interface DefaultChosen {
  clientId: string;
  hostConfigurationId: string;
  revision: bigint;
}

async function run(
  context: CommandContext,
  hostConfigurationId: string,
  command: HostConfigurationCommand,
): Promise<CommandResult<Written, HostConfigurationFailure>> {
  const result = await hostConfigurations.handle(context, hostConfigurationId, command);
  if (!result.ok) return result;
  const view = toView(result.state);
  if (!view || !result.tip) throw new Error("a host configuration command left no configuration");
  return { ok: true, value: result.events.length > 0 ? { view, revision: result.tip.revision } : { view } };
}

/**
 * The ids of the client's enabled configurations of the processor made before (by id) `before`,
 * at most `limit`: a lookup across streams, answered by the read side (src/projections) and
 * given at service start.
 */
export type EnabledConfigurationsBefore = (query: { clientId: string; processor: Processor; before: string; limit: number }) => Promise<string[]>;

export interface HostConfigurationContext extends CommandContext {
  enabledConfigurationsBefore: EnabledConfigurationsBefore;
}

/** What a configuration's credentials are bound to: moved to another configuration, they do not decrypt. */
export const credentialsContext = (hostConfigurationId: string) => `host-configuration/${hostConfigurationId}/credentials`;

function encrypted(secrets: SecretBox, hostConfigurationId: string, credentials: Secret<JsonObject> | undefined) {
  const plaintext = credentials?.expose();
  return plaintext && Object.keys(plaintext).length > 0
    ? asEncryptedSecret(secrets.encrypt(plaintext, credentialsContext(hostConfigurationId)))
    : undefined;
}

/**
 * `isDefault`: whether the new configuration is its client's default for the processor, as the
 * client's stream has it; `defaultChosen`: the default this call recorded, if it did.
 */
export async function createHostConfiguration(
  context: HostConfigurationContext,
  secrets: SecretBox,
  hostConfigurationId: string,
  input: HostConfigurationInput,
): Promise<CommandResult<Written & { isDefault: boolean; defaultChosen?: DefaultChosen }, HostConfigurationFailure>> {
  const command: HostConfigurationCommand = {
    type: "CreateHostConfiguration",
    hostConfigurationId,
    ...({ processor: input.processor, configuration: input.configuration } as ProcessorConfiguration),
    credentials: encrypted(secrets, hostConfigurationId, input.credentials) ?? null,
    now: context.now().toISOString(),
  };
  let created = await run(context, hostConfigurationId, command);
  if (!created.ok && created.error === "already_exists") created = (await createdBefore(context, hostConfigurationId, input)) ?? created;
  if (!created.ok) return created;
  const { current, chosen } = await chooseFirstDefault(context, input, hostConfigurationId);
  return { ok: true, value: { ...created.value, isDefault: current === hostConfigurationId, ...(chosen && { defaultChosen: chosen }) } };
}

/**
 * The configuration an earlier request under the same Idempotency-Key created under this id
 * (`hostConfigurationId` is the id the key was claimed for), as its stream has it: its retry
 * answers it and goes on to choose the default, never makes a second one that would leave the
 * client's payments ambiguous. Undefined when there is none for this client and processor.
 */
async function createdBefore(
  context: CommandContext,
  hostConfigurationId: string,
  { processor, configuration }: HostConfigurationInput,
): Promise<{ ok: true; value: Written } | undefined> {
  const { state, tip } = await hostConfigurations.read(context, hostConfigurationId);
  const view = toView(state);
  if (!view || !tip || view.processor !== processor || view.clientId !== configuration.clientId) return undefined;
  return { ok: true, value: { view, revision: tip.revision } };
}

/**
 * Gives the client a default for the processor when it has none yet: the one configuration it
 * had enabled before this one, so integrations that name none keep working; this one, when it
 * had none enabled; none, when it had several (that state predates defaults: an admin chooses).
 * "Before" is by id, which is time-ordered: of configurations created at once, the first sees
 * none before it, so one of them always proposes, and the client stream keeps the first choice.
 * Returns the client's default for the processor afterwards, if it has one, and the choice this
 * call recorded.
 */
async function chooseFirstDefault(
  context: HostConfigurationContext,
  input: HostConfigurationInput,
  hostConfigurationId: string,
): Promise<{ current?: string | undefined; chosen?: DefaultChosen | undefined }> {
  const { clientId } = input.configuration;
  const client = await clients.read(context, clientId);
  const current = client.state.defaultHostConfigurations.get(input.processor);
  if (current !== undefined) return { current };
  const enabledBefore = await context.enabledConfigurationsBefore({ clientId, processor: input.processor, before: hostConfigurationId, limit: 2 });
  const candidate =
    enabledBefore.length === 1
      ? enabledBefore[0]!
      : enabledBefore.length === 0 && input.configuration.enabled
        ? hostConfigurationId
        : undefined;
  if (candidate === undefined) return {};
  const command = { type: "ChooseDefaultHostConfigurationIfNone", processor: input.processor, hostConfigurationId: candidate } as const;
  const { state, chosen } = await recordDefault(context, clientId, { ...command, now: context.now().toISOString() }, client);
  return { current: state.defaultHostConfigurations.get(input.processor), chosen };
}

export type DefaultChoiceFailure = "not_found" | "processor_mismatch" | "disabled";

/**
 * Makes an enabled configuration its client's default for its processor; choosing the default
 * again changes nothing (and answers no `DefaultChosen`).
 */
export async function chooseDefaultHostConfiguration(
  context: CommandContext,
  processor: Processor,
  hostConfigurationId: string,
): Promise<CommandResult<DefaultChosen | undefined, DefaultChoiceFailure>> {
  const { state } = await hostConfigurations.read(context, hostConfigurationId);
  if (state.status === "absent") return { ok: false, error: "not_found", detail: "No such host configuration." };
  const { current } = state;
  if (current.processor !== processor) {
    return { ok: false, error: "processor_mismatch", detail: `The host configuration belongs to ${current.processor}.` };
  }
  if (!current.configuration.enabled) {
    return {
      ok: false,
      error: "disabled",
      detail:
        `Host configuration ${hostConfigurationId} is disabled: enable it first ` +
        `(PUT /v1/host-configurations/${processor}/${hostConfigurationId} with enabled true), then make it the default.`,
    };
  }
  const now = context.now().toISOString();
  const { chosen } = await recordDefault(context, current.configuration.clientId, { type: "ChooseDefaultHostConfiguration", processor, hostConfigurationId, now });
  return { ok: true, value: chosen };
}

type DefaultChoice = Extract<ClientCommand, { type: "ChooseDefaultHostConfiguration" | "ChooseDefaultHostConfigurationIfNone" }>;

/** Records the choice in the client's stream: the client's state afterwards, and the choice when it recorded one. */
async function recordDefault(
  context: CommandContext,
  clientId: string,
  command: DefaultChoice,
  known?: KnownStream<ClientState>,
): Promise<{ state: ClientState; chosen?: DefaultChosen }> {
  const result = await clients.handle(context, clientId, command, known && { known });
  if (!result.ok) throw new Error(`choosing a default host configuration failed: ${result.detail}`);
  if (result.events.length === 0 || !result.tip) return { state: result.state };
  return { state: result.state, chosen: { clientId, hostConfigurationId: command.hostConfigurationId, revision: result.tip.revision } };
}

export function updateHostConfiguration(
  context: CommandContext,
  secrets: SecretBox,
  hostConfigurationId: string,
  input: HostConfigurationInput,
  expectedVersion: number | undefined,
) {
  return run(context, hostConfigurationId, {
    type: "UpdateHostConfiguration",
    hostConfigurationId,
    ...({ processor: input.processor, configuration: input.configuration } as ProcessorConfiguration),
    credentials: encrypted(secrets, hostConfigurationId, input.credentials),
    expectedVersion,
    now: context.now().toISOString(),
  });
}
