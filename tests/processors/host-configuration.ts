import { randomUUID } from "node:crypto";
import type { HostConfigurationView } from "../../src/domain/host-configurations/decider.ts";
import { hostConfigurationSchemas, type Processor } from "../../src/domain/host-configurations/schemas.ts";
import type { JsonObject } from "../../src/eventstore/port.ts";
import type { ProcessorHostConfiguration } from "../../src/processors/port.ts";
import { validBodies } from "../support/host-configurations.ts";
import { Secret } from "../../src/domain/secret.ts";

/**
 * What a command hands a connector: the view of a valid configuration and its decrypted
 * credentials, those of the valid body unless given.
 */
export function hostConfiguration(processor: Processor, credentials?: JsonObject | null): ProcessorHostConfiguration {
  const { credentials: sent, ...fields } = hostConfigurationSchemas[processor].create.parse(validBodies[processor]);
  const now = new Date().toISOString();
  const view = {
    id: randomUUID(),
    processor,
    ...fields,
    credentials: { configured: sent !== undefined },
    version: 1,
    createdAt: now,
    updatedAt: now,
  } as HostConfigurationView;
  const decrypted = credentials === undefined ? ((sent as JsonObject | undefined) ?? null) : credentials;
  return { view, credentials: decrypted && new Secret(decrypted) };
}
