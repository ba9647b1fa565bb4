import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, sql } from "kysely";
import { webhookSecretContext } from "../commands/webhook-endpoints.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Database } from "../db/schema.ts";
import { retryDecision } from "../domain/webhooks/retry-schedule.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { acquireLease, releaseLease } from "../projections/checkpoints.ts";
import type { SendResult, WebhookSender } from "../webhooks/destination.ts";
import { signatureHeaders } from "../webhooks/signature.ts";

/** How an attempt ended, for the metrics: `retrying` failed with a retry scheduled. */
export type WebhookAttemptOutcome = "delivered" | "retrying" | "failed";

export interface WebhookDispatcherOptions {
  db: Kysely<Database>;
  secrets: SecretBox;
  sender: WebhookSender;
  logger: Logger;
  /** The clock of the events: a rotated secret's 24 hours are counted on it. */
  now: () => Date;
  intervalMs: number;
  retryBaseMs: number;
  observe: (outcome: WebhookAttemptOutcome, durationMs: number) => void;
  leaseMs?: number;
  maxInFlight?: number;
  /** So that one slow or dead endpoint never takes every slot. */
  maxInFlightPerEndpoint?: number;
}

const LEASE = "job:webhook-dispatcher";

type Due = {
  delivery_id: string;
  endpoint_id: string;
  message_id: string;
  payload: string;
  attempts: number;
  round_start: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
};

/**
 * Sends the outbox's due deliveries, one instance at a time (a lease like the projections'). A
 * delivery waits while an earlier message of the same transaction or batch is still pending for
 * its endpoint, so each endpoint gets a subject's messages in order. Sends run concurrently,
 * bounded overall and per endpoint; each finished send looks for more at once, and a timer looks
 * every `intervalMs` for new rows and retries that came due.
 */
export class WebhookDispatcher {
  readonly #options: Required<WebhookDispatcherOptions>;
  readonly #owner = randomUUID();
  readonly #stopping = new AbortController();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #perEndpoint = new Map<string, number>();
  #leaseRenewedAt = 0;
  #filling: Promise<void> | undefined;
  #fillAgain = false;
  #running: Promise<void> | undefined;

  constructor(options: WebhookDispatcherOptions) {
    this.#options = { leaseMs: 10_000, maxInFlight: 64, maxInFlightPerEndpoint: 8, ...options };
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
    await this.#filling;
    await Promise.all(this.#inFlight.values());
    await releaseLease(this.#options.db, LEASE, this.#owner).catch(() => {});
  }

  async #loop(): Promise<void> {
    const { intervalMs, logger } = this.#options;
    while (!this.#stopping.signal.aborted) {
      await this.#fill().catch((error: unknown) => logger.warn({ err: error }, "webhook dispatch failed; trying again"));
      await sleep(intervalMs, undefined, { signal: this.#stopping.signal }).catch(() => {});
    }
  }

  /** Starts what is due, up to the bounds; calls made while one runs are folded into one more run. */
  #fill(): Promise<void> {
    if (this.#filling) {
      this.#fillAgain = true;
      return this.#filling;
    }
    this.#filling = (async () => {
      do {
        this.#fillAgain = false;
        if (this.#stopping.signal.aborted || !(await this.#holdLease())) return;
        for (const due of await this.#due()) this.#send(due);
      } while (this.#fillAgain);
    })().finally(() => (this.#filling = undefined));
    return this.#filling;
  }

  async #holdLease(): Promise<boolean> {
    const { db, leaseMs } = this.#options;
    if (Date.now() - this.#leaseRenewedAt < leaseMs / 3) return true;
    const held = await acquireLease(db, LEASE, this.#owner, leaseMs);
    this.#leaseRenewedAt = held ? Date.now() : 0;
    return held;
  }

  async #due(): Promise<Due[]> {
    const { db, maxInFlight, maxInFlightPerEndpoint } = this.#options;
    const free = maxInFlight - this.#inFlight.size;
    if (free <= 0) return [];
    const { rows } = await sql<Due & { rank: string }>`
      select d.delivery_id, d.endpoint_id, d.message_id, d.payload, d.attempts, d.round_start,
             e.url, e.secret, e.previous_secret, e.previous_secret_expires_at, d.rank
      from (
        select d.*, row_number() over (partition by d.endpoint_id order by d.next_attempt_at, d.position, d.ordinal) as rank
        from webhook_deliveries d
        where d.status = 'pending' and d.next_attempt_at <= now()
          and not (d.delivery_id = any(array(select jsonb_array_elements_text(${JSON.stringify([...this.#inFlight.keys()])}::jsonb)::uuid)))
          and not exists (
            select 1 from webhook_deliveries earlier
            where earlier.status = 'pending' and earlier.endpoint_id = d.endpoint_id and earlier.subject_id = d.subject_id
              and (earlier.position, earlier.ordinal) < (d.position, d.ordinal))
      ) d
      join webhook_endpoints e on e.endpoint_id = d.endpoint_id and e.enabled and not e.deleted
      where d.rank <= ${maxInFlightPerEndpoint}
      order by d.rank, d.next_attempt_at
      limit ${free}
    `.execute(db);
    return rows.filter((row) => {
      const busy = this.#perEndpoint.get(row.endpoint_id) ?? 0;
      if (busy >= maxInFlightPerEndpoint) return false;
      this.#perEndpoint.set(row.endpoint_id, busy + 1);
      return true;
    });
  }

  #send(due: Due): void {
    const sent = this.#attempt(due)
      .catch((error: unknown) => this.#options.logger.error({ err: error, deliveryId: due.delivery_id }, "webhook attempt not recorded"))
      .finally(() => {
        this.#inFlight.delete(due.delivery_id);
        const busy = (this.#perEndpoint.get(due.endpoint_id) ?? 1) - 1;
        if (busy > 0) this.#perEndpoint.set(due.endpoint_id, busy);
        else this.#perEndpoint.delete(due.endpoint_id);
        if (!this.#stopping.signal.aborted) void this.#fill().catch(() => {});
      });
    this.#inFlight.set(due.delivery_id, sent);
  }

  async #attempt(due: Due): Promise<void> {
    const { db, retryBaseMs, observe } = this.#options;
    const result = await this.#post(due);
    const attempt = due.attempts + 1;
    const delivered = result.kind === "answered" && result.status >= 200 && result.status < 300;
    const decision = retryDecision({ delivered, attemptInRound: attempt - due.round_start, baseMs: retryBaseMs });
    const retryIn = decision.retryInMs === null ? null : sql<Date>`now() + ${decision.retryInMs} * interval '1 millisecond'`;
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto("webhook_attempts")
        .values({
          attempt_id: newId(),
          delivery_id: due.delivery_id,
          endpoint_id: due.endpoint_id,
          attempt,
          status: decision.status,
          response_status: result.kind === "answered" ? result.status : null,
          duration_ms: Math.round(result.durationMs),
          error: result.kind === "failed" ? result.error : null,
          next_attempt_at: retryIn,
          created_at: sql`now()`,
        })
        .execute();
      await trx
        .updateTable("webhook_deliveries")
        .set({
          status: decision.status,
          attempts: attempt,
          ...(retryIn && { next_attempt_at: retryIn }),
          updated_at: sql`now()`,
        })
        .where("delivery_id", "=", due.delivery_id)
        .execute();
    });
    observe(decision.status === "pending" ? "retrying" : decision.status, result.durationMs);
  }

  /** Signs with the current secret, and with the previous one while it is still valid, then sends. */
  async #post(due: Due): Promise<SendResult> {
    const { secrets, sender, now, logger } = this.#options;
    const context = webhookSecretContext(due.endpoint_id);
    let keys: string[];
    try {
      keys = [secrets.decrypt(due.secret, context)];
      if (due.previous_secret && due.previous_secret_expires_at && due.previous_secret_expires_at > now()) {
        keys.push(secrets.decrypt(due.previous_secret, context));
      }
    } catch (error) {
      logger.error({ err: error, endpointId: due.endpoint_id }, "a webhook signing secret does not decrypt");
      return { kind: "failed", error: "the signing secret could not be decrypted", durationMs: 0 };
    }
    return sender.send(due.url, due.payload, signatureHeaders(due.message_id, new Date(), due.payload, keys));
  }
}
