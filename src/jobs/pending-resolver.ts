import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { PaymentContext, PendingResolution } from "../commands/payments/dependencies.ts";
import type { Logger } from "../logger.ts";
import { ThrottledLog } from "./throttled-log.ts";
import { acquireLease, releaseLease } from "../projections/checkpoints.ts";
import { type ResolverCursor, resolverWorkAfter } from "../projections/transactions/queries.ts";
import { resolveTransaction, type ResolverTiming } from "./resolve-transaction.ts";
import type { JobContext } from "./job-context.ts";

export interface PendingResolverOptions {
  context: JobContext<PaymentContext>;
  logger: Logger;
  intervalMs: number;
  timing: ResolverTiming;
  /** How long the resolver's lease lasts without renewal: a dead instance's successor waits this long. */
  leaseMs: number;
  /** Rows looked at per pass. */
  batchSize?: number;
}

/** The lease's row among the projections' (the same table and rules); it also keeps the last pass's summary. */
export const PENDING_RESOLVER_LEASE = "job:pending-resolver";

/** What a pass did with one transaction: its resolution, or `errored` (logged, tried again later). */
/** Resolutions logged one by one per minute; an outage's others are counted in one line. */
const RESOLUTION_LINES_PER_MINUTE = 20;

export type PassResult = PendingResolution | "errored";

/** The resolver's most recent pass that did anything, as operators see it. */
export interface PassSummary {
  /** When the pass ended. */
  at: string;
  counts: Record<PassResult, number>;
}


/**
 * Asks the processors about transactions left pending (a timeout, or a crash between intent and
 * answer), records what they say, and reverses what must be (`resolveTransaction`). One instance
 * at a time does it, under a lease like the projections'. Each pass takes the rows after the
 * previous pass's last one, so every row gets its turn however many stay unknown; a row that
 * fails is logged and tried again on the next round, never stopping the others.
 */
export class PendingResolver {
  readonly #options: Required<PendingResolverOptions>;
  readonly #owner = randomUUID();
  readonly #stopping = new AbortController();
  #cursor: ResolverCursor | undefined;
  #running: Promise<void> | undefined;
  readonly #resolutionLog: ThrottledLog;

  constructor(options: PendingResolverOptions) {
    this.#options = { batchSize: 100, ...options };
    this.#resolutionLog = new ThrottledLog({
      logger: options.logger,
      limit: RESOLUTION_LINES_PER_MINUTE,
      intervalMs: 60_000,
      summary: "more pending transactions were resolved than were logged one by one",
    });
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
    await releaseLease(this.#options.context.db, PENDING_RESOLVER_LEASE, this.#owner).catch(() => {});
  }

  /**
   * One pass over the next rows with work, when this instance holds the lease. Returns its summary,
   * also stored with the lease, or null when it did nothing (an idle pass writes no summary).
   */
  async resolveOnce(): Promise<PassSummary | null> {
    const { context, logger, timing } = this.#options;
    if (!(await this.#holdLease())) return null;
    // Renewed while the pass runs, however long a processor call takes; lost, the pass ends.
    let held = true;
    const renewal = setInterval(() => {
      this.#holdLease().then(
        (renewed) => (held &&= renewed),
        () => (held = false),
      );
    }, this.#options.leaseMs / 3);
    const counts: Record<PassResult, number> = {
      approved: 0,
      declined: 0,
      failed: 0,
      approved_late: 0,
      reversed: 0,
      reversal_refused: 0,
      still_pending: 0,
      errored: 0,
    };
    try {
      for (const row of await this.#nextRows()) {
        if (this.#stopping.signal.aborted || !held) break;
        try {
          const resolution = await resolveTransaction(context, timing, row.payment_id, row.transaction_id);
          if (resolution) {
            context.metrics.countPendingResolution(resolution);
            counts[resolution] += 1;
            this.#logResolution(resolution, { transactionId: row.transaction_id, paymentId: row.payment_id });
          }
        } catch (error) {
          counts.errored += 1;
          logger.warn({ err: error, transactionId: row.transaction_id }, "resolving a transaction failed; it is tried again later");
        }
      }
    } finally {
      clearInterval(renewal);
      this.#resolutionLog.flush();
    }
    if (Object.values(counts).every((count) => count === 0)) return null;
    const summary: PassSummary = { at: context.now().toISOString(), counts };
    await this.#recordPass(summary);
    return summary;
  }

  /** One line for each decision; nothing for a transaction still unknown, asked again on every pass. */
  #logResolution(resolution: PendingResolution, transaction: { transactionId: string; paymentId: string }): void {
    const fields = { ...transaction, resolution };
    switch (resolution) {
      case "still_pending":
        return;
      case "reversed":
        return this.#resolutionLog.info(fields, "transaction left pending too long: a reversal was sent and approved");
      case "reversal_refused":
        return this.#resolutionLog.warn(fields, "transaction left pending too long: the processor refused its reversal");
      case "approved_late":
        return this.#resolutionLog.warn(fields, "transaction recorded failed was approved by the processor after all");
      default:
        return this.#resolutionLog.info(fields, "pending transaction resolved from the processor's answer");
    }
  }

  /** Stores the pass's summary only while this instance still holds the lease: a successor's stays. */
  async #recordPass(summary: PassSummary): Promise<void> {
    await this.#options.context.db
      .updateTable("projection_checkpoints")
      .set({ last_pass: JSON.stringify(summary) })
      .where("projection", "=", PENDING_RESOLVER_LEASE)
      .where("owner", "=", this.#owner)
      .execute();
  }

  #holdLease(): Promise<boolean> {
    const { context, leaseMs } = this.#options;
    return acquireLease(context.db, PENDING_RESOLVER_LEASE, this.#owner, leaseMs);
  }

  /** The next rows with work after the cursor, in (created_at, transaction_id) order; from the start again after the last. */
  async #nextRows() {
    const { context, batchSize, timing } = this.#options;
    // Younger ones may still get their answer from the call that is waiting for it: a call starts
    // at most `processorTimeoutMs` after its intent and lasts at most as long (`sendAndRecord`).
    const youngest = new Date(context.now().getTime() - 2 * timing.processorTimeoutMs);
    const rows = await resolverWorkAfter(context.db, youngest, this.#cursor, batchSize);
    const last = rows.at(-1);
    this.#cursor = last && rows.length === batchSize ? { createdAt: last.created_at, transactionId: last.transaction_id } : undefined;
    return rows;
  }

  async #loop(): Promise<void> {
    const { intervalMs, logger } = this.#options;
    let delay = intervalMs;
    while (!this.#stopping.signal.aborted) {
      try {
        await this.resolveOnce();
        delay = intervalMs;
      } catch (error) {
        // The database keeps failing: back off, up to a minute.
        delay = Math.min(delay * 2, 60_000);
        logger.warn({ err: error }, "resolving pending transactions failed; backing off");
      }
      await sleep(delay, undefined, { signal: this.#stopping.signal }).catch(() => {});
    }
  }
}
