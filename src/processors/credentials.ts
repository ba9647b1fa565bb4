import type { z } from "zod";
import {
  type HostConfigurationCredentials,
  hostConfigurationSchemas,
  type Processor,
} from "../domain/host-configurations/schemas.ts";
import type { JsonObject } from "../eventstore/port.ts";
import { configurationFor } from "./host-configuration.ts";
import type { ProcessorHostConfiguration } from "./port.ts";

/** Where unusable credentials are reported: the service's logger. */
export interface CredentialsLog {
  error(fields: { hostConfigurationId: string; processor: Processor; field: string; problem: string }, message: string): void;
}

/** Why a configuration's credentials cannot be sent: the field and what is wrong with it, never its value. */
export interface UnusableCredentials {
  /** As the host configuration's body names it: `credentials`, `credentials.datawireId`. */
  field: string;
  problem: string;
}

export type CredentialsRead<P extends Processor> =
  | { ok: true; credentials: HostConfigurationCredentials<P> }
  | { ok: false; unusable: UnusableCredentials };

/**
 * Reads a host configuration's decrypted credentials for the message a connector is about to
 * send, checked against the processor's schema (what its wire format can carry, a header value
 * included). Credentials that fail (stored before a check existed, or missing) are never sent in
 * part: the connector answers that nothing was sent, and the log names the configuration and the
 * field.
 */
export interface CredentialsReader {
  read<P extends Processor>(processor: P, hostConfiguration: ProcessorHostConfiguration): CredentialsRead<P>;
}

export function credentialsReader(log: CredentialsLog | undefined): CredentialsReader {
  return {
    read(processor, hostConfiguration) {
      configurationFor(processor, hostConfiguration.view);
      const read = parsedCredentials(processor, hostConfiguration);
      if (!read.ok) {
        log?.error(
          { hostConfigurationId: hostConfiguration.view.id, processor, ...read.unusable },
          "the host configuration's credentials cannot be sent: nothing was sent to the processor",
        );
      }
      return read;
    },
  };
}

function parsedCredentials<P extends Processor>(processor: P, hostConfiguration: ProcessorHostConfiguration): CredentialsRead<P> {
  if (hostConfiguration.credentials === null) return { ok: false, unusable: { field: "credentials", problem: "are missing" } };
  const sent = hostConfiguration.credentials.expose();
  const parsed = hostConfigurationSchemas[processor].credentials.safeParse(sent);
  // The schema indexed by `P` parses to `P`'s credentials; the compiler sees the union of all.
  if (parsed.success) return { ok: true, credentials: parsed.data as HostConfigurationCredentials<P> };
  const [issue] = parsed.error.issues;
  if (!issue) return { ok: false, unusable: { field: "credentials", problem: "are malformed" } };
  const field = ["credentials", ...issue.path.map(String)].join(".");
  return { ok: false, unusable: { field, problem: problemOf(issue, sent) } };
}

/** What is wrong, in words that never quote the value: the schema's own messages do not. */
function problemOf(issue: z.core.$ZodIssue, sent: JsonObject): string {
  const [key] = issue.path;
  if (issue.code === "invalid_type" && issue.path.length === 1 && typeof key === "string" && sent[key] === undefined) return "is missing";
  if (issue.code === "invalid_type") return `must be a ${issue.expected}`;
  if (issue.code === "unrecognized_keys") return `have fields the processor does not take (${issue.keys.join(", ")})`;
  return issue.message;
}
