import { clientStreamId } from "../../domain/clients/decider.ts";
import { hostConfigurationStreamId } from "../../domain/host-configurations/decider.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { hostConfigurationsProjection } from "./host-configurations-projection.ts";

/**
 * Until the read model shows the configuration at `version` (its stream at `revision`), a bounded
 * while: a host configuration's write answers once the reads that follow show it, on every instance.
 */
export function waitForHostConfigurationWrite(
  { db, readYourWrites }: OwnWritesContext,
  { hostConfigurationId, version, revision }: { hostConfigurationId: string; version: number; revision: bigint },
): Promise<boolean> {
  const target = { projection: hostConfigurationsProjection.name, streamId: hostConfigurationStreamId(hostConfigurationId), revision };
  return readYourWrites.waitForProjection(target, async () =>
    Boolean(
      await db
        .selectFrom("host_configurations")
        .select("version")
        .where("host_configuration_id", "=", hostConfigurationId)
        .where("version", ">=", version)
        .executeTakeFirst(),
    ),
  );
}

/** Until the read model shows the client's default choice (its stream at `revision`), a bounded while. */
export function waitForDefaultChoice(
  { db, readYourWrites }: OwnWritesContext,
  { clientId, hostConfigurationId, revision }: { clientId: string; hostConfigurationId: string; revision: bigint },
): Promise<boolean> {
  const target = { projection: hostConfigurationsProjection.name, streamId: clientStreamId(clientId), revision };
  return readYourWrites.waitForProjection(target, async () =>
    Boolean(
      await db
        .selectFrom("host_configurations")
        .select("host_configuration_id")
        .where("host_configuration_id", "=", hostConfigurationId)
        .where("is_default", "=", true)
        .executeTakeFirst(),
    ),
  );
}
