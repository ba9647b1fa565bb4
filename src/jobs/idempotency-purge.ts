import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { isRetained } from "../api/idempotency-records.ts";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { acquireLease, releaseLease } from "../projections/checkpoints.ts";
import { Periodic } from "./periodic.ts";

export interface IdempotencyPurgeOptions {
  db: Kysely<Database>;
  logger: Logger;
  intervalMs: number;
  /** How long a key is remembered after its first use (API.md "Idempotency"). */
  retentionMs: number;
  /** How long the purge's lease lasts without renewal: a dead instance's successor waits this long. */
  leaseMs: number;
  /** Records deleted per statement: each statement holds its rows' locks only briefly. */
  batchSize?: number;
}

const LEASE = "job:idempotency-purge";

/**
 * Deletes the idempotency records whose keys are no longer remembered, on one instance at a time
 * (a lease like the projections'), in small batches so that no statement holds many locks or runs
 * long beside the payments, each followed by a rest (`Periodic.batch`) so that a backlog never
 * takes the database's time from them. A record is deleted only when it is older than the retention and its
 * claim is not held by a running request; the rows are locked as they are chosen, and a row that
 * changed meanwhile (a retry renewed its key) is chosen only if it still qualifies.
 */
export class IdempotencyPurge {
  readonly #options: Required<IdempotencyPurgeOptions>;
  readonly #owner = randomUUID();
  readonly #periodic: Periodic;

  constructor(options: IdempotencyPurgeOptions) {
    this.#options = { batchSize: 500, ...options };
    this.#periodic = new Periodic({
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: "purging expired idempotency records failed; trying again later",
      pass: () => this.purgeOnce(),
    });
  }

  start(): void {
    this.#periodic.start();
  }

  async stop(): Promise<void> {
    await this.#periodic.stop();
    await releaseLease(this.#options.db, LEASE, this.#owner).catch(() => {});
  }

  /** One pass, while this instance holds the lease: batches until none is full. How many records it deleted. */
  async purgeOnce(): Promise<number> {
    const { db, retentionMs, leaseMs, batchSize } = this.#options;
    let purged = 0;
    // The lease is taken, or renewed, before every batch: a pass that lost it stops.
    while (!this.#periodic.stopped && (await acquireLease(db, LEASE, this.#owner, leaseMs))) {
      // Oldest first through idempotency_records_created_at (migration 0019); `skip locked` passes
      // over a record a request is renewing or taking over right now.
      const { numAffectedRows } = await this.#periodic.batch(() =>
        sql`
          delete from idempotency_records
          where (scope, idempotency_key) in (
            select scope, idempotency_key from idempotency_records
            where not ${isRetained(retentionMs)}
            order by created_at
            limit ${batchSize}
            for update skip locked
          )
        `.execute(db),
      );
      const deleted = Number(numAffectedRows ?? 0n);
      purged += deleted;
      if (deleted < batchSize) break;
    }
    if (purged > 0) this.#options.logger.info({ purged }, "purged expired idempotency records");
    return purged;
  }
}
