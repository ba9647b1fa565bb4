import type { SecretBox } from "../../crypto/secrets.ts";
import { type HostConfigurationView, toView } from "../../domain/host-configurations/decider.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import { Secret } from "../../domain/secret.ts";
import type { EventStore, JsonObject } from "../../eventstore/port.ts";
import { credentialsContext } from "../host-configurations.ts";
import { hostConfigurations } from "../streams.ts";
import type { HostConfigurationCandidate as Candidate } from "./payment-settings.ts";

export type HostConfigurationForPayment =
  | { ok: true; view: HostConfigurationView; credentials: Secret<JsonObject> | null }
  | {
      ok: false;
      error: "host_configuration_missing" | "host_configuration_disabled" | "host_configuration_ambiguous";
      detail: string;
    };

type Choice = { ok: true; candidate: Candidate } | Extract<HostConfigurationForPayment, { ok: false }>;

/**
 * The host configuration a transaction runs on, among the client's (`PaymentSettings`): the one
 * named, or else the client's default for the processor, or else its one enabled configuration.
 * Read from its stream, so version and credentials match.
 */
export async function hostConfigurationForPayment(
  deps: HostConfigurationLoading,
  request: { processor: Processor; hostConfigurationId: string | undefined },
  clientConfigurations: readonly Candidate[],
): Promise<HostConfigurationForPayment> {
  const candidates = clientConfigurations.filter((candidate) => candidate.processor === request.processor);
  const choice =
    request.hostConfigurationId === undefined
      ? unnamedChoice(request.processor, candidates)
      : namedChoice(request.processor, request.hostConfigurationId, candidates);
  if (!choice.ok) return choice;
  const { host_configuration_id: id, version } = choice.candidate;
  const loaded = await loadHostConfiguration(deps, id, version);
  if (!loaded.view.enabled) return disabled(request.processor, id);
  return { ok: true, ...loaded };
}

function namedChoice(processor: Processor, hostConfigurationId: string, candidates: Candidate[]): Choice {
  const candidate = candidates.find((row) => row.host_configuration_id === hostConfigurationId);
  if (!candidate) {
    return { ok: false, error: "host_configuration_missing", detail: `No ${processor} host configuration ${hostConfigurationId} for this client.` };
  }
  return candidate.enabled ? { ok: true, candidate } : disabled(processor, hostConfigurationId);
}

function unnamedChoice(processor: Processor, candidates: Candidate[]): Choice {
  const chosen = candidates.find((candidate) => candidate.is_default);
  if (chosen) {
    if (chosen.enabled) return { ok: true, candidate: chosen };
    const id = chosen.host_configuration_id;
    return {
      ok: false,
      error: "host_configuration_disabled",
      detail:
        `The default ${processor} host configuration ${id} is disabled: enable it (PUT /v1/host-configurations/${processor}/${id}) ` +
        `or choose another default (PUT /v1/host-configurations/${processor}/{id}/default).`,
    };
  }
  const enabled = candidates.filter((candidate) => candidate.enabled);
  if (candidates.length === 0) {
    return { ok: false, error: "host_configuration_missing", detail: `This client has no ${processor} host configuration.` };
  }
  if (enabled.length === 0) return { ok: false, error: "host_configuration_disabled", detail: `The ${processor} host configuration is disabled.` };
  if (enabled.length > 1) {
    return {
      ok: false,
      error: "host_configuration_ambiguous",
      detail:
        `This client has ${enabled.length} enabled ${processor} host configurations and no default: pass hostConfigurationId, ` +
        `or choose a default (PUT /v1/host-configurations/${processor}/{id}/default).`,
    };
  }
  return { ok: true, candidate: enabled[0]! };
}

const disabled = (processor: Processor, hostConfigurationId: string) => ({
  ok: false as const,
  error: "host_configuration_disabled" as const,
  detail: `The ${processor} host configuration ${hostConfigurationId} is disabled.`,
});

interface LoadedHostConfiguration {
  view: HostConfigurationView;
  /** Decrypted, and kept so only as a secret: the cache prints nothing of them. */
  credentials: Secret<JsonObject> | null;
}

/** How many host configuration versions a service keeps decrypted. */
const CACHED_VERSIONS = 10_000;

/**
 * The host configurations a service loaded, credentials decrypted, by id and version: a version
 * never changes once written to the service's event store, so an entry stays right for as long
 * as it is kept. One per service (made in `src/service.ts`, on the contexts as
 * `registries.hostConfigurations`): another service's database may hold the same id and version
 * with other credentials. The least recently used go first beyond CACHED_VERSIONS.
 */
export class HostConfigurationCache {
  readonly #loaded = new Map<string, LoadedHostConfiguration>();

  get(hostConfigurationId: string, version: number): LoadedHostConfiguration | undefined {
    const key = versionKey(hostConfigurationId, version);
    const loaded = this.#loaded.get(key);
    if (loaded) {
      // Re-inserted, so the least recently used come first.
      this.#loaded.delete(key);
      this.#loaded.set(key, loaded);
    }
    return loaded;
  }

  set(hostConfigurationId: string, loaded: LoadedHostConfiguration): void {
    const key = versionKey(hostConfigurationId, loaded.view.version);
    this.#loaded.delete(key);
    this.#loaded.set(key, loaded);
    for (const oldest of this.#loaded.keys()) {
      if (this.#loaded.size <= CACHED_VERSIONS) break;
      this.#loaded.delete(oldest);
    }
  }
}

const versionKey = (hostConfigurationId: string, version: number) => `${hostConfigurationId}@${version}`;

/** What loading a host configuration needs: the service's event store, its secrets, and its cache. */
export interface HostConfigurationLoading {
  store: EventStore;
  secrets: SecretBox;
  registries: { hostConfigurations: HostConfigurationCache };
}

/**
 * A host configuration from its stream, credentials decrypted, enabled or not. When the caller
 * knows the version it wants (from the read model) and that version was loaded before, the
 * stream is not read again.
 */
export async function loadHostConfiguration(
  deps: HostConfigurationLoading,
  hostConfigurationId: string,
  knownVersion?: number,
): Promise<LoadedHostConfiguration> {
  const cache = deps.registries.hostConfigurations;
  const cached = knownVersion === undefined ? undefined : cache.get(hostConfigurationId, knownVersion);
  if (cached) return cached;
  const { state } = await hostConfigurations.read(deps, hostConfigurationId);
  const view = toView(state);
  if (state.status !== "present" || !view) throw new Error(`host configuration ${hostConfigurationId} has no events`);
  const credentials = state.credentials && new Secret(deps.secrets.decryptJson(state.credentials, credentialsContext(hostConfigurationId)));
  const result = { view, credentials };
  cache.set(hostConfigurationId, result);
  return result;
}
