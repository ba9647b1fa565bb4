import type { PaymentContext } from "../commands/payments/dependencies.ts";
import { expireAuthorization } from "../commands/payments/expire-authorization.ts";
import { closeSettlement, resumeSettlement, type SettlementContext } from "../commands/settlements/index.ts";
import type { Processor } from "../domain/host-configurations/schemas.ts";
import { scheduledSettlementId } from "../domain/settlements/events.ts";
import { latestScheduledClose } from "../domain/settlements/schedule.ts";
import type { Logger } from "../logger.ts";
import { everyHostConfiguration } from "../projections/host-configurations/queries.ts";
import { existingSettlementIds, openSettlementsBefore } from "../projections/settlements/queries.ts";
import { authorizationsCapturableSince } from "../projections/transactions/queries.ts";
import { Periodic } from "./periodic.ts";
import { ThrottledLog } from "./throttled-log.ts";
import type { JobContext } from "./job-context.ts";

export interface LifecycleOptions {
  context: JobContext<PaymentContext & SettlementContext>;
  logger: Logger;
  intervalMs: number;
  authorizationTtlMs: number;
  settlementResumeAfterMs: number;
}

/** Authorizations expired per pass: the next pass takes the rest. */
const EXPIRIES_PER_PASS = 100;

/** Expiries logged one by one per minute; a backlog's others are counted in one line. */
const EXPIRY_LINES_PER_MINUTE = 20;

/**
 * What happens to money after authorization without anyone asking: each host configuration's
 * daily batch closes at its settlement time (a day missed while the service was down closes at
 * the next pass), batches whose opener died are finished, and authorizations past their time to
 * be captured expire. Every instance runs it; each batch and each expiry is decided on its own
 * stream, so only one instance ever does it.
 */
export class Lifecycle {
  readonly #options: LifecycleOptions;
  readonly #periodic: Periodic;
  readonly #expiryLog: ThrottledLog;

  constructor(options: LifecycleOptions) {
    this.#options = options;
    this.#expiryLog = new ThrottledLog({
      logger: options.logger,
      limit: EXPIRY_LINES_PER_MINUTE,
      intervalMs: 60_000,
      summary: "more authorizations expired than were logged one by one",
    });
    this.#periodic = new Periodic({
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: "the settlement and expiry pass failed; trying again later",
      pass: () => this.runOnce(),
    });
  }

  start(): void {
    this.#periodic.start();
  }

  async stop(): Promise<void> {
    await this.#periodic.stop();
  }

  async runOnce(): Promise<void> {
    await this.#finishStalledBatches();
    await this.#closeScheduledBatches();
    await this.#expireAuthorizations();
    this.#expiryLog.flush();
  }

  async #finishStalledBatches(): Promise<void> {
    const { context, settlementResumeAfterMs } = this.#options;
    const stalled = await openSettlementsBefore(context.db, new Date(context.now().getTime() - settlementResumeAfterMs));
    for (const settlementId of stalled) {
      if (this.#periodic.stopped) return;
      await this.#each({ settlementId }, () => resumeSettlement(context, settlementId, { staleAfterMs: settlementResumeAfterMs }));
    }
  }

  async #closeScheduledBatches(): Promise<void> {
    const { context } = this.#options;
    const configurations = await everyHostConfiguration(context.db);
    const now = context.now();
    const due = configurations.map((row) => {
      const { settings } = row.view;
      const close = latestScheduledClose(now, settings.settlementTime, settings.timeZone);
      return { row, close, settlementId: scheduledSettlementId(row.host_configuration_id, close.localDate) };
    });
    if (due.length === 0) return;
    const closed = new Set(await existingSettlementIds(context.db, due.map((batch) => batch.settlementId)));
    for (const { row, close, settlementId } of due) {
      if (this.#periodic.stopped) return;
      if (closed.has(settlementId)) continue;
      await this.#each({ settlementId }, () =>
        closeSettlement(context, {
          settlementId,
          hostConfigurationId: row.host_configuration_id,
          clientId: row.client_id,
          processor: row.processor as Processor,
          localDate: close.localDate,
          cutoff: close.at,
        }, { staleAfterMs: this.#options.settlementResumeAfterMs }),
      );
    }
  }

  async #expireAuthorizations(): Promise<void> {
    const { context, authorizationTtlMs } = this.#options;
    const due = await authorizationsCapturableSince(context.db, new Date(context.now().getTime() - authorizationTtlMs), EXPIRIES_PER_PASS);
    for (const authorization of due) {
      if (this.#periodic.stopped) return;
      await this.#each({ transactionId: authorization.transactionId }, async () => {
        const expired = await expireAuthorization(context, authorization);
        if (expired.ok) {
          const { id: voidTransactionId, status: voidStatus } = expired.transaction;
          this.#expiryLog.info({ ...authorization, voidTransactionId, voidStatus }, "authorization expired; a void of what it held was sent");
        }
      });
    }
  }

  /** One batch or expiry: a failure is logged and tried again on a later pass, never stopping the others. */
  async #each(subject: Record<string, string>, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.#options.logger.warn({ err: error, ...subject }, "settlement or expiry work failed; trying again on a later pass");
    }
  }
}
