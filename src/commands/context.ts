import type { Tracer } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import { tracingOff } from "../telemetry/tracing.ts";
import { GroupCommits } from "./execute-batched.ts";
import { PaymentMethodLookup } from "./payment-methods/stored-card.ts";
import type { EventMetadata } from "./execute.ts";
import { HostConfigurationCache } from "./payments/host-configuration.ts";
import { PaymentSettingsLookup } from "./payments/payment-settings.ts";

/**
 * What one service keeps in memory between requests: made when it starts (`src/service.ts`) and
 * passed down, never held by a module, so two services in one process share none of it.
 */
export interface Registries {
  /** The appends queued or in flight per stream, so racing commands of a stream land in one. */
  groupCommits: GroupCommits;
  /** Host configurations loaded from this service's event store, credentials decrypted. */
  hostConfigurations: HostConfigurationCache;
  /** Clients' limits and host configurations as payments read them, lookups grouped. */
  paymentSettings: PaymentSettingsLookup;
  /** Payment methods with their wrapped data keys as payments read them, lookups grouped. */
  paymentMethods: PaymentMethodLookup;
  /** Where spans go: the no-op tracer while tracing is off. */
  tracer: Tracer;
}

/** A service's registries, empty, over the event store its commands append to and the database they read. */
export function createRegistries(store: EventStore, db: Kysely<Database>, tracer: Tracer = tracingOff.tracer): Registries {
  return {
    groupCommits: new GroupCommits(store, tracer),
    hostConfigurations: new HostConfigurationCache(),
    paymentSettings: new PaymentSettingsLookup(db),
    paymentMethods: new PaymentMethodLookup(db),
    tracer,
  };
}

/** What every command needs: the stores, the clock, who is asking, and the service's registries. */
export interface CommandContext {
  db: Kysely<Database>;
  store: EventStore;
  now: () => Date;
  metadata: EventMetadata;
  registries: Registries;
}

export type CommandResult<T, Failure extends string> =
  | { ok: true; value: T }
  | { ok: false; error: Failure; detail: string };
