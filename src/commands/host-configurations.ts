import type { SecretBox } from "../crypto/secrets.ts";
import {
  asEncryptedSecret,
  type HostConfigurationFailure,
  hostConfigurationDecider,
  hostConfigurationStreamId,
  type HostConfigurationCommand,
} from "../domain/host-configurations/decider.ts";
import type { Processor, ProcessorConfiguration } from "../domain/host-configurations/schemas.ts";
import type { JsonObject } from "../eventstore/port.ts";
import { newId } from "../ids.ts";
import { hostConfigurationsProjection } from "../projections/host-configurations/host-configurations-projection.ts";
import { waitForProjection } from "../projections/read-your-writes.ts";
import type { CommandContext, CommandResult } from "./context.ts";
import { execute } from "./execute.ts";

export interface HostConfigurationInput {
  processor: Processor;
  /** Everything but the credentials, already validated against the processor's schema. */
  configuration: ProcessorConfiguration["configuration"];
  /** Plaintext; encrypted here before it reaches an event. `undefined` on update keeps the stored ones. */
  credentials: JsonObject | undefined;
}

type Written = { hostConfigurationId: string; version: number };

async function run(
  context: CommandContext,
  hostConfigurationId: string,
  command: HostConfigurationCommand,
): Promise<CommandResult<Written, HostConfigurationFailure>> {
  const streamId = hostConfigurationStreamId(hostConfigurationId);
  const result = await execute(context.store, hostConfigurationDecider, streamId, command, context.metadata);
  if (!result.ok) return result;
  if (result.state.status !== "present" || !result.tip) {
    throw new Error("a host configuration command left no configuration");
  }
  const version = result.state.version;
  if (result.events.length > 0) {
    const target = { projection: hostConfigurationsProjection.name, streamId, revision: result.tip.revision };
    await waitForProjection(context.db, target, async () =>
      Boolean(
        await context.db
          .selectFrom("host_configurations")
          .select("version")
          .where("host_configuration_id", "=", hostConfigurationId)
          .where("version", ">=", version)
          .executeTakeFirst(),
      ),
    );
  }
  return { ok: true, value: { hostConfigurationId, version } };
}

/** What a configuration's credentials are bound to: moved to another configuration, they do not decrypt. */
export const credentialsContext = (hostConfigurationId: string) => `host-configuration/${hostConfigurationId}/credentials`;

const encrypted = (secrets: SecretBox, hostConfigurationId: string, credentials: JsonObject | undefined) =>
  credentials && Object.keys(credentials).length > 0
    ? asEncryptedSecret(secrets.encrypt(credentials, credentialsContext(hostConfigurationId)))
    : undefined;

export function createHostConfiguration(context: CommandContext, secrets: SecretBox, input: HostConfigurationInput) {
  const hostConfigurationId = newId();
  return run(context, hostConfigurationId, {
    type: "CreateHostConfiguration",
    hostConfigurationId,
    ...({ processor: input.processor, configuration: input.configuration } as ProcessorConfiguration),
    credentials: encrypted(secrets, hostConfigurationId, input.credentials) ?? null,
    now: context.now().toISOString(),
  });
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
