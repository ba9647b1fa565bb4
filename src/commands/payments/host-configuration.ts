import type { Kysely } from "kysely";
import { batcherPer, batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import type { Database } from "../../db/schema.ts";
import {
  evolve,
  type HostConfigurationEvent,
  type HostConfigurationView,
  hostConfigurationStreamId,
  initialState,
  toView,
} from "../../domain/host-configurations/decider.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { EventStore, JsonObject } from "../../eventstore/port.ts";
import { credentialsContext } from "../host-configurations.ts";

export type HostConfigurationForPayment =
  | { ok: true; view: HostConfigurationView; credentials: JsonObject | null }
  | { ok: false; error: "host_configuration_missing" | "host_configuration_disabled"; detail: string };

/**
 * The host configuration a transaction runs on: the one named, or else the client's one enabled
 * configuration for the processor. Read from its stream, so version and credentials match.
 */
export async function hostConfigurationForPayment(
  deps: { db: Kysely<Database>; store: EventStore; secrets: SecretBox },
  request: { clientId: string; processor: Processor; hostConfigurationId: string | undefined },
): Promise<HostConfigurationForPayment> {
  const candidates = (await hostConfigurationsOf(deps.db)(request.clientId)).filter(
    (candidate) =>
      candidate.processor === request.processor &&
      (request.hostConfigurationId === undefined || candidate.host_configuration_id === request.hostConfigurationId),
  );
  const enabled = candidates.filter((candidate) => candidate.enabled);
  if (candidates.length === 0) {
    return {
      ok: false,
      error: "host_configuration_missing",
      detail: request.hostConfigurationId
        ? `No ${request.processor} host configuration ${request.hostConfigurationId} for this client.`
        : `This client has no ${request.processor} host configuration.`,
    };
  }
  if (enabled.length === 0) {
    return { ok: false, error: "host_configuration_disabled", detail: `The ${request.processor} host configuration is disabled.` };
  }
  if (enabled.length > 1) {
    return {
      ok: false,
      error: "host_configuration_missing",
      detail: `This client has ${enabled.length} enabled ${request.processor} host configurations: pass hostConfigurationId.`,
    };
  }
  const { host_configuration_id: id, version } = enabled[0]!;
  const loaded = await loadHostConfiguration(deps, id, version);
  if (!loaded.view.enabled) {
    return { ok: false, error: "host_configuration_disabled", detail: `The ${request.processor} host configuration is disabled.` };
  }
  return { ok: true, ...loaded };
}

/**
 * A client's host configurations as the read model has them. Lookups that arrive while one is in
 * flight are made together in one query.
 */
const hostConfigurationsOf = batcherPer((db: Kysely<Database>) =>
  batchWhileBusy(async (clientIds: string[]) => {
    const rows = await db
      .selectFrom("host_configurations")
      .select(["client_id", "processor", "host_configuration_id", "enabled", "version"])
      .where("client_id", "in", clientIds)
      .execute();
    return clientIds.map((clientId) => rows.filter((row) => row.client_id === clientId));
  }),
);

interface LoadedHostConfiguration {
  view: HostConfigurationView;
  credentials: JsonObject | null;
}

/** The latest version loaded of each host configuration: a version never changes once written. */
const loaded = new Map<string, LoadedHostConfiguration>();
const MAX_LOADED = 10_000;

/**
 * A host configuration from its stream, credentials decrypted, enabled or not. When the caller
 * knows the version it wants (from the read model) and that version was loaded before, the
 * stream is not read again.
 */
export async function loadHostConfiguration(
  deps: { store: EventStore; secrets: SecretBox },
  hostConfigurationId: string,
  knownVersion?: number,
): Promise<LoadedHostConfiguration> {
  const cached = loaded.get(hostConfigurationId);
  if (cached && cached.view.version === knownVersion) return cached;
  const events = await deps.store.readStream(hostConfigurationStreamId(hostConfigurationId));
  const state = (events as unknown as HostConfigurationEvent[]).reduce(evolve, initialState());
  const view = toView(state);
  if (state.status !== "present" || !view) throw new Error(`host configuration ${hostConfigurationId} has no events`);
  const credentials = state.credentials && deps.secrets.decryptJson(state.credentials, credentialsContext(hostConfigurationId));
  const result = { view, credentials };
  if (loaded.size >= MAX_LOADED) loaded.delete(loaded.keys().next().value!);
  loaded.set(hostConfigurationId, result);
  return result;
}
