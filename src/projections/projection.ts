import type { Transaction } from "kysely";
import type { Database } from "../db/schema.ts";
import type { RecordedEvent } from "../eventstore/port.ts";

/**
 * A read model built from the event log. The runner calls `apply` inside the database
 * transaction that also moves the projection's checkpoint.
 */
export interface Projection {
  /** Unique; also names the checkpoint row. Lowercase letters, digits and underscores. */
  name: string;
  /** The tables this projection owns: a rebuild replaces exactly these. */
  tables: readonly string[];
  /** Only these event types are applied; the checkpoint still advances past the others. */
  eventTypes?: readonly string[];
  /**
   * Writes the batch's effect on the read model. Must be idempotent: applying events that were
   * already applied changes nothing. Use unqualified table names: a rebuild redirects them.
   */
  apply(trx: Transaction<Database>, events: readonly RecordedEvent[]): Promise<void>;
}

export function assertProjectionName(name: string): void {
  if (!/^[a-z][a-z0-9_]{0,47}$/.test(name)) throw new RangeError(`Invalid projection name: ${name}`);
}
