import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import { acquireLease, releaseLease, renewLease } from "../projections/checkpoints.ts";
import { Periodic } from "./periodic.ts";

export interface WebhookLogPurgeOptions {
  db: Kysely<Database>;
  logger: Logger;
  /** RETENTION_PURGE_INTERVAL_MS. */
  intervalMs: number;
  /** WEBHOOK_LOG_RETENTION_DAYS: how long a finished delivery and its attempts are kept. */
  retentionMs: number;
  /** Deliveries deleted per statement: short statements that never hold up the outbox's writers for long. */
  batchSize?: number;
  leaseMs?: number;
}

export const WEBHOOK_LOG_PURGE_LEASE = "job:webhook-log-purge";

/**
 * Deletes the deliveries finished longer ago than the retention (delivered, or failed for good),
 * with their attempts; and those still pending to an endpoint since deleted, which nothing will
 * send. A delivery still owed to an endpoint that exists, enabled or not, is never deleted. One
 * instance at a time does it, under a lease like the other jobs', in batches that each rest after
 * them (`Periodic.batch`) so that a backlog never takes the database's time from the payments.
 */
export class WebhookLogPurge {
  readonly #options: Required<WebhookLogPurgeOptions>;
  readonly #owner = randomUUID();
  readonly #periodic: Periodic;

  constructor(options: WebhookLogPurgeOptions) {
    this.#options = { batchSize: 500, leaseMs: 30_000, ...options };
    this.#periodic = new Periodic({
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: "purging old webhook deliveries failed; trying again later",
      pass: () => this.purgeOnce(),
    });
  }

  start(): void {
    this.#periodic.start();
  }

  async stop(): Promise<void> {
    await this.#periodic.stop();
    await releaseLease(this.#options.db, WEBHOOK_LOG_PURGE_LEASE, this.#owner).catch(() => {});
  }

  /** One pass, when this instance holds the lease: how many deliveries it deleted. */
  async purgeOnce(): Promise<number> {
    const { db, logger, leaseMs, batchSize } = this.#options;
    if (!(await acquireLease(db, WEBHOOK_LOG_PURGE_LEASE, this.#owner, leaseMs))) return 0;
    let purged = 0;
    while (!this.#periodic.stopped) {
      const deleted = await this.#periodic.batch(() => this.#purgeBatch());
      purged += deleted;
      if (deleted < batchSize || !(await renewLease(db, WEBHOOK_LOG_PURGE_LEASE, this.#owner, leaseMs))) break;
    }
    if (purged > 0) logger.info({ purged }, "purged webhook deliveries and their attempts past WEBHOOK_LOG_RETENTION_DAYS");
    return purged;
  }

  /**
   * One statement: up to `batchSize` deliveries of each kind, their attempts, and the purge's
   * position moved up (see the webhooks projection). The delete checks each row again as it
   * deletes it, so a delivery redelivered meanwhile (pending again) stays. Finished deliveries
   * come from the partial index on `updated_at`; a deleted endpoint's pending ones from the
   * dispatcher's index by endpoint. The deletes look their rows up by key (`= any(array(…))`)
   * whatever the statistics say: joined to the candidates instead, a backlog that grew since the
   * last analyze was planned as a scan of the whole table for each candidate (minutes per batch at
   * 500,000 deliveries, bench:purges).
   */
  async #purgeBatch(): Promise<number> {
    const { db, retentionMs, batchSize } = this.#options;
    const cutoff = sql`now() - ${retentionMs} * interval '1 millisecond'`;
    const { rows } = await sql<{ purged: number }>`
      with candidate as (
        (select delivery_id from webhook_deliveries
         where status <> 'pending' and updated_at < ${cutoff}
         order by updated_at
         limit ${batchSize})
        union all
        (select d.delivery_id from webhook_endpoints e
         join webhook_deliveries d on d.endpoint_id = e.endpoint_id and d.status = 'pending'
         where e.deleted and d.updated_at < ${cutoff}
         limit ${batchSize})
      ), purged as (
        delete from webhook_deliveries d
        where d.delivery_id = any(array(select delivery_id from candidate)) and d.updated_at < ${cutoff}
          and (d.status <> 'pending'
               or exists (select from webhook_endpoints e where e.endpoint_id = d.endpoint_id and e.deleted))
        returning d.delivery_id, d.position
      ), attempts as (
        delete from webhook_attempts a where a.delivery_id = any(array(select delivery_id from purged))
      ), watermark as (
        insert into webhook_outbox_purged (through_position)
        select max(position) from purged having count(*) > 0
        on conflict (only_row) do update
          set through_position = greatest(webhook_outbox_purged.through_position, excluded.through_position)
      )
      select count(*)::int as purged from purged
    `.execute(db);
    return rows[0]?.purged ?? 0;
  }
}
