import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { EventStore } from "../eventstore/port.ts";
import type { EventMetadata } from "./execute.ts";

/** What every command needs: the stores, the clock, and who is asking. */
export interface CommandContext {
  db: Kysely<Database>;
  store: EventStore;
  now: () => Date;
  metadata: EventMetadata;
}

export type CommandResult<T, Failure extends string> =
  | { ok: true; value: T }
  | { ok: false; error: Failure; detail: string };
