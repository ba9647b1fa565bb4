import type { Tracer } from "@opentelemetry/api";
import type { EventStore } from "../eventstore/port.ts";
import { tracingOff } from "../telemetry/tracing.ts";
import { GroupCommits } from "./execute-batched.ts";
import type { EventMetadata } from "./execute.ts";
import { HostConfigurationCache } from "./payments/host-configuration.ts";

/**
 * What one service keeps in memory between requests: made when it starts (`src/service.ts`) and
 * passed down, never held by a module, so two services in one process share none of it.
 */
export interface Registries {
  /** The appends queued or in flight per stream, so racing commands of a stream land in one. */
  groupCommits: GroupCommits;
  /** Host configurations loaded from this service's event store, credentials decrypted. */
  hostConfigurations: HostConfigurationCache;
  /** Where spans go: the no-op tracer while tracing is off. */
  tracer: Tracer;
}

/** A service's registries, empty, over the event store its commands append to. */
export function createRegistries(store: EventStore, tracer: Tracer = tracingOff.tracer): Registries {
  return {
    groupCommits: new GroupCommits(store, tracer),
    hostConfigurations: new HostConfigurationCache(),
    tracer,
  };
}

/**
 * What every command needs: the event store, the clock, who is asking, and the service's
 * registries. No database: a command decides on its streams, and a lookup across streams reaches
 * it as a port of its own (`LocateTransaction`, `PaymentSettingsOf`, `StoredCards`, `CardVault`,
 * …) that the service gives at start.
 */
export interface CommandContext {
  store: EventStore;
  now: () => Date;
  metadata: EventMetadata;
  registries: Registries;
}

export type CommandResult<T, Failure extends string> =
  | { ok: true; value: T }
  | { ok: false; error: Failure; detail: string };
