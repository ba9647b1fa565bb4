import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { type PaymentEvent, paymentDecider, paymentStreamId, type PaymentState } from "../../domain/payments/index.ts";
import type { Logger } from "../../logger.ts";
import { givesLimitBack } from "../../domain/limits/limits.ts";
import { execute } from "../execute.ts";
import { releaseLimitOf } from "../limits.ts";
import type { PaymentContext } from "./dependencies.ts";
import { loadHostConfiguration } from "./host-configuration.ts";
import { outcomeOf } from "./outcome.ts";
import { waitForPayment } from "../../projections/transactions/own-writes.ts";

export interface PendingResolverOptions {
  context: PaymentContext;
  logger: Logger;
  intervalMs: number;
  /** Younger pending transactions may still be waiting for their own answer. */
  minAgeMs: number;
}

/**
 * Asks the processors about transactions left pending (a timeout, or a crash between intent and
 * answer) and records what they say. A transaction the processor never received is recorded as
 * failed: nothing was charged. One with no usable answer stays pending and is asked again.
 */
export class PendingResolver {
  readonly #options: PendingResolverOptions;
  readonly #stopping = new AbortController();
  #running: Promise<void> | undefined;

  constructor(options: PendingResolverOptions) {
    this.#options = options;
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
  }

  /** One pass over every pending transaction old enough; returns how many were resolved. */
  async resolveOnce(): Promise<number> {
    const { context, minAgeMs } = this.#options;
    const pending = await context.db
      .selectFrom("transactions")
      .select(["transaction_id", "payment_id"])
      .where("status", "=", "pending")
      .where("created_at", "<", sql<Date>`now() - ${minAgeMs} * interval '1 millisecond'`)
      .orderBy("created_at")
      .limit(100)
      .execute();
    let resolved = 0;
    for (const { transaction_id: transactionId, payment_id: paymentId } of pending) {
      if (this.#stopping.signal.aborted) break;
      if (await this.#resolve(paymentId, transactionId)) resolved += 1;
    }
    return resolved;
  }

  async #resolve(paymentId: string, transactionId: string): Promise<boolean> {
    const { context } = this.#options;
    const events = await context.store.readStream(paymentStreamId(paymentId));
    const state = events.reduce(
      (folded: PaymentState, event) => paymentDecider.evolve(folded, event as unknown as PaymentEvent),
      paymentDecider.initialState(),
    );
    const transaction = state.transactions.get(transactionId);
    if (!transaction || transaction.status !== "pending") return false;
    const hostConfiguration = await loadHostConfiguration(context, transaction.hostConfigurationId);
    const answer = await context.connectors[transaction.processor].inquire({ transactionId, hostConfiguration });
    const outcome =
      answer.kind === "not_found"
        ? ({
            status: "failed",
            reason: "processor_error",
            processorResponse: null,
          } as const)
        : outcomeOf(answer);
    if (!outcome) return false;
    const recorded = await execute(
      context.store,
      paymentDecider,
      paymentStreamId(paymentId),
      { type: "RecordOutcome", transactionId, outcome, now: context.now().toISOString() },
      { ...context.metadata, resolvedBy: "pending-resolver" },
    );
    if (!recorded.ok) return false;
    if (recorded.events.length > 0 && givesLimitBack(recorded.state, transactionId)) {
      await releaseLimitOf(context, paymentId, transaction.clientId);
    }
    if (recorded.tip) await waitForPayment(context.db, paymentId, recorded.tip.revision);
    this.#options.logger.info({ transactionId, status: outcome.status }, "pending transaction resolved");
    return true;
  }

  async #loop(): Promise<void> {
    const { intervalMs, logger } = this.#options;
    let delay = intervalMs;
    while (!this.#stopping.signal.aborted) {
      try {
        await this.resolveOnce();
        delay = intervalMs;
      } catch (error) {
        // Back off while the processor or a store keeps failing, up to a minute.
        delay = Math.min(delay * 2, 60_000);
        logger.warn({ err: error }, "resolving pending transactions failed; backing off");
      }
      await sleep(delay, undefined, { signal: this.#stopping.signal }).catch(() => {});
    }
  }
}
