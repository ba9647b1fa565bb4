import { fold } from "../domain/decider.ts";
import { limitHeldBy, utcDay } from "../domain/limits/limits.ts";
import { type LimitUsageCommand, type OpenReservation, openReservations } from "../domain/limits/usage.ts";
import { reservationOf } from "../commands/limits.ts";
import { paymentDecider } from "../domain/payments/index.ts";
import { limitUsage, payments } from "../commands/streams.ts";
import type { Logger } from "../logger.ts";
import { transactionsHoldingLimits } from "../projections/transactions/queries.ts";
import { Periodic } from "./periodic.ts";
import type { JobContext } from "./job-context.ts";

export interface LimitSweeperOptions {
  context: JobContext;
  logger: Logger;
  intervalMs: number;
  /**
   * How long a reservation, and a payment's last event, must stand before the sweeper judges
   * them: longer than any request takes from reserving to giving back, so it never races one.
   */
  graceMs: number;
}

const DAY_MS = 86_400_000;

/** Releases per append: each event is a few hundred bytes, so a slice stays far below 1 MiB. */
const RELEASES_PER_APPEND = 500;

type UsageOf = Parameters<typeof limitUsage.streamId>[0];

/**
 * Gives back the limit reservations that nothing will give back any more: those whose payment
 * never recorded its intent (the process died, or a write failed, right after reserving), those a
 * retry of such a request replaced with its own, and what a payment stopped holding (declined,
 * failed, voided, its captures voided after its rest was released) without it being given back.
 * So a day's usage always equals the sum of what counts. Each usage stream is read whole and its
 * releases appended at the revision read, so sweepers on several instances never release twice.
 */
export class LimitSweeper {
  readonly #options: LimitSweeperOptions;
  readonly #periodic: Periodic;

  constructor(options: LimitSweeperOptions) {
    this.#options = options;
    this.#periodic = new Periodic({
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: "sweeping limit reservations failed; trying again later",
      pass: () => this.sweepOnce(),
    });
  }

  start(): void {
    this.#periodic.start();
  }

  async stop(): Promise<void> {
    await this.#periodic.stop();
  }

  /** One pass over today's and yesterday's usage of every client with limits; how many reservations it gave back. */
  async sweepOnce(): Promise<number> {
    const { context } = this.#options;
    const rows = await context.db.selectFrom("clients").select(["client_id", "limits"]).execute();
    const now = context.now();
    const days = [utcDay(now), utcDay(new Date(now.getTime() - DAY_MS))];
    let released = 0;
    for (const { client_id: clientId, limits } of rows) {
      for (const { currency } of limits) {
        for (const day of days) {
          if (this.#periodic.stopped) return released;
          released += await this.#sweep({ clientId, currency, day }, day);
        }
      }
    }
    return released;
  }

  async #sweep(usage: UsageOf, day: string): Promise<number> {
    const { context, graceMs } = this.#options;
    const events = await limitUsage.events(context, usage);
    if (events.length === 0) return 0;
    const settledBefore = context.now().getTime() - graceMs;
    const open = openReservations(events);
    const judged = [...open.values()].filter((reservation) => reservation.at <= settledBefore);
    const surelyCounting = await this.#surelyCounting(judged, [...open.values()], day);
    const releases: LimitUsageCommand[] = [];
    for (const reservation of judged) {
      if (surelyCounting.has(reservation.reservationId)) continue;
      const held = await this.#held(reservation, settledBefore);
      if (held >= reservation.amount) continue;
      releases.push({
        type: held === 0 ? "Release" : "Return",
        reservationId: reservation.reservationId,
        transactionId: reservation.transactionId,
        amount: reservation.amount - held,
        now: context.now().toISOString(),
      });
    }
    // Decided on the stream as read, appended at the revision read: a sweeper on another instance
    // that got ahead stops this one, so no reservation is given back twice. In slices: a day's
    // releases may be thousands, more than one append holds (EventStoreDB: 1 MiB). A sweep that
    // dies between slices leaves those not yet written open, and the next pass judges them afresh.
    const last = events.at(-1)!;
    const released = await limitUsage.handleJudged(context, usage, releases, {
      known: { state: limitUsage.fold(usage, [last]).state, tip: last },
      metadata: { sweptBy: "limit-sweeper" },
      perAppend: RELEASES_PER_APPEND,
    });
    if (released > 0) this.#options.logger.warn({ streamId: limitUsage.streamId(usage), released }, "gave back limit reservations nothing else would");
    return released;
  }

  /**
   * The reservations that surely count, from the read model, so their payments' streams need no
   * reading: their transaction is pending, or approved and not voided, made on the stream's day,
   * and holds no other open reservation here. A transaction retried after an attempt that
   * reserved and died holds two (or one on another day); only its stream tells which one is its
   * own. A lagging read model only delays a release to a later pass.
   */
  async #surelyCounting(judged: OpenReservation[], open: OpenReservation[], day: string): Promise<Set<string>> {
    const heldBy = new Map<string, number>();
    for (const { transactionId } of open) heldBy.set(transactionId, (heldBy.get(transactionId) ?? 0) + 1);
    const single = judged.filter((reservation) => heldBy.get(reservation.transactionId) === 1);
    if (single.length === 0) return new Set();
    const rows = await transactionsHoldingLimits(this.#options.context.db, single.map((reservation) => reservation.transactionId));
    const counting = new Set(rows.filter((row) => utcDay(row.created_at) === day).map((row) => row.transaction_id));
    return new Set(single.filter((reservation) => counting.has(reservation.transactionId)).map((reservation) => reservation.reservationId));
  }

  /**
   * How much of a reservation still counts, from its payment's stream: none unless it is the one
   * the payment's intent holds; all of it while the payment changed too recently to judge; else
   * what the payment holds (`limitHeldBy`).
   */
  async #held(reservation: OpenReservation, settledBefore: number): Promise<number> {
    const events = await payments.events(this.#options.context, reservation.transactionId);
    const [intent] = events;
    const lastEvent = events.at(-1);
    if (!intent || !lastEvent || reservationOf(intent)?.reservationId !== reservation.reservationId) return 0;
    if (lastEvent.recordedAt.getTime() > settledBefore) return reservation.amount;
    return limitHeldBy(fold(paymentDecider, events));
  }
}
