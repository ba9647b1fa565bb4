import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, sql } from "kysely";
import { batchWhileBusy } from "../batching/batch-while-busy.ts";
import { webhookSecretContext } from "../commands/webhook-endpoints.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Database } from "../db/schema.ts";
import { type RetryDecision, retryDecision } from "../domain/webhooks/retry-schedule.ts";
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
  /** So that one slow or dead endpoint never takes every slot. */
  maxInFlightPerEndpoint?: number;
  maxInFlight?: number;
}

const LEASE = "job:webhook-dispatcher";
const MAX_CACHED_KEYS = 10_000;

type Candidate = {
  deliveryId: string;
  endpointId: string;
  messageId: string;
  payload: string;
  attempts: number;
  roundStart: number;
  /** The delivery's redeliveries when it was read: one asked for during the attempt is not lost. */
  redeliveries: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

type Recorded = { candidate: Candidate; result: SendResult; decision: RetryDecision };

/**
 * Sends the outbox's deliveries, on one instance at a time (a lease like the projections').
 *
 * Each look at the outbox takes, per enabled endpoint, the next due deliveries (an index scan of
 * that endpoint's pending rows), so one endpoint's backlog never hides another's. Sends run
 * concurrently, at most `maxInFlightPerEndpoint` per endpoint and `maxInFlight` in all; a finished
 * send starts the endpoint's next candidate at once and looks again only when it has none.
 *
 * Order: a message is not due while an earlier one about the same transaction (or batch) is still
 * pending for its endpoint: in flight, waiting for its retry, or sent without its outcome recorded
 * (the database went away meanwhile). The outbox alone decides this, so a lost lease, a restart or
 * an unrecorded attempt cannot let a later message overtake.
 */
export class WebhookDispatcher {
  readonly #options: Required<WebhookDispatcherOptions>;
  readonly #owner = randomUUID();
  readonly #stopping = new AbortController();
  readonly #inFlight = new Map<string, { candidate: Candidate; sent: Promise<void> }>();
  readonly #busy = new Map<string, number>();
  #candidates = new Map<string, Candidate[]>();
  #leaseRenewedAt = 0;
  #leading = false;
  #looking: Promise<void> | undefined;
  #lookAgain = false;
  /** Deliveries whose send ended while a look's query ran: its rows may predate their outcome. */
  #endedDuringLook: Set<string> | undefined;
  #running: Promise<void> | undefined;
  readonly #record: (recorded: Recorded) => Promise<void>;
  /** Signing keys by endpoint and ciphertext: one envelope decryption per secret rather than per send. */
  readonly #keys = new Map<string, string>();

  constructor(options: WebhookDispatcherOptions) {
    this.#options = { leaseMs: 10_000, maxInFlightPerEndpoint: 8, maxInFlight: 64, ...options };
    // Attempts that end together are recorded together: one transaction, two statements.
    this.#record = batchWhileBusy((batch: Recorded[]) => this.#recordAttempts(batch).then(() => batch.map(() => undefined)));
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
    await this.#looking;
    await Promise.all([...this.#inFlight.values()].map(({ sent }) => sent));
    await releaseLease(this.#options.db, LEASE, this.#owner).catch(() => {});
  }

  async #loop(): Promise<void> {
    const { intervalMs } = this.#options;
    while (!this.#stopping.signal.aborted) {
      await this.#look();
      await sleep(intervalMs, undefined, { signal: this.#stopping.signal }).catch(() => {});
    }
  }

  /** Looks for due deliveries and starts what may start; calls made meanwhile fold into one more look. */
  #look(): Promise<void> {
    if (this.#looking) {
      this.#lookAgain = true;
      return this.#looking;
    }
    this.#looking = (async () => {
      do {
        this.#lookAgain = false;
        if (this.#stopping.signal.aborted || !(await this.#holdLease())) return;
        const ended = new Set<string>();
        this.#endedDuringLook = ended;
        const due = await this.#dueCandidates();
        for (const [endpointId, list] of due) {
          due.set(endpointId, list.filter((candidate) => !ended.has(candidate.deliveryId) && !this.#inFlight.has(candidate.deliveryId)));
        }
        this.#candidates = due;
        this.#endedDuringLook = undefined;
        for (const endpointId of due.keys()) this.#startNext(endpointId);
      } while (this.#lookAgain);
    })()
      .catch((error: unknown) => this.#options.logger.warn({ err: error }, "webhook dispatch failed; trying again"))
      .finally(() => {
        this.#endedDuringLook = undefined;
        this.#looking = undefined;
      });
    return this.#looking;
  }

  async #holdLease(): Promise<boolean> {
    const { db, leaseMs } = this.#options;
    if (this.#leading && Date.now() - this.#leaseRenewedAt < leaseMs / 3) return true;
    const held = await acquireLease(db, LEASE, this.#owner, leaseMs);
    this.#leading = held;
    this.#leaseRenewedAt = held ? Date.now() : 0;
    return held;
  }

  /** Per enabled endpoint, its next due deliveries, the earliest due first. */
  async #dueCandidates(): Promise<Map<string, Candidate[]>> {
    const { db, maxInFlightPerEndpoint } = this.#options;
    const { rows } = await sql<Candidate>`
      select d.delivery_id as "deliveryId", d.endpoint_id as "endpointId",
             d.message_id as "messageId", d.payload, d.attempts, d.round_start as "roundStart", d.redeliveries,
             e.url, e.secret, e.previous_secret as "previousSecret",
             e.previous_secret_expires_at as "previousSecretExpiresAt"
      from webhook_endpoints e
      cross join lateral (
        select * from webhook_deliveries d
        where d.endpoint_id = e.endpoint_id and d.status = 'pending' and d.next_attempt_at <= now()
          and not (d.delivery_id = any(array(select jsonb_array_elements_text(${JSON.stringify([...this.#inFlight.keys()])}::jsonb)::uuid)))
          and not exists (
            select from webhook_deliveries earlier
            where earlier.endpoint_id = d.endpoint_id and earlier.subject_id = d.subject_id and earlier.status = 'pending'
              and (earlier.position, earlier.ordinal) < (d.position, d.ordinal)
          )
        order by d.next_attempt_at, d.position, d.ordinal
        limit ${maxInFlightPerEndpoint * 4}
      ) d
      where e.enabled and not e.deleted
    `.execute(db);
    const candidates = new Map<string, Candidate[]>();
    for (const row of rows) {
      const list = candidates.get(row.endpointId) ?? [];
      list.push(row);
      candidates.set(row.endpointId, list);
    }
    return candidates;
  }

  /** Starts the endpoint's candidates while it and the dispatcher have room; looks again once none is left. */
  #startNext(endpointId: string): void {
    const { maxInFlightPerEndpoint, maxInFlight } = this.#options;
    const list = this.#candidates.get(endpointId) ?? [];
    while (list.length > 0) {
      if ((this.#busy.get(endpointId) ?? 0) >= maxInFlightPerEndpoint || this.#inFlight.size >= maxInFlight) return;
      this.#send(list.shift()!);
    }
    if (!this.#stopping.signal.aborted) void this.#look();
  }

  #send(candidate: Candidate): void {
    this.#busy.set(candidate.endpointId, (this.#busy.get(candidate.endpointId) ?? 0) + 1);
    const sent = this.#attempt(candidate)
      .catch((error: unknown) => {
        // Unrecorded, the delivery stays pending and due: the next look finds it again.
        this.#options.logger.error({ err: error, deliveryId: candidate.deliveryId }, "webhook attempt not recorded");
      })
      .finally(() => {
        this.#inFlight.delete(candidate.deliveryId);
        this.#endedDuringLook?.add(candidate.deliveryId);
        const busy = (this.#busy.get(candidate.endpointId) ?? 1) - 1;
        if (busy > 0) this.#busy.set(candidate.endpointId, busy);
        else this.#busy.delete(candidate.endpointId);
        if (!this.#stopping.signal.aborted) this.#startNext(candidate.endpointId);
      });
    this.#inFlight.set(candidate.deliveryId, { candidate, sent });
  }

  async #attempt(candidate: Candidate): Promise<void> {
    const { retryBaseMs, observe } = this.#options;
    const result = await this.#post(candidate);
    const delivered = result.kind === "answered" && result.status >= 200 && result.status < 300;
    const attemptInRound = candidate.attempts + 1 - candidate.roundStart;
    const decision = retryDecision({ delivered, attemptInRound, baseMs: retryBaseMs });
    await this.#record({ candidate, result, decision });
    observe(decision.status === "pending" ? "retrying" : decision.status, result.durationMs);
  }

  /** Signs with the current secret, and with the previous one while it is still valid, then sends. */
  async #post(candidate: Candidate): Promise<SendResult> {
    const { secrets, sender, now, logger } = this.#options;
    const context = webhookSecretContext(candidate.endpointId);
    const key = (ciphertext: string) => {
      const cacheKey = `${context}\n${ciphertext}`;
      const known = this.#keys.get(cacheKey);
      if (known !== undefined) return known;
      if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.clear();
      const plaintext = secrets.decrypt(ciphertext, context);
      this.#keys.set(cacheKey, plaintext);
      return plaintext;
    };
    let keys: string[];
    try {
      keys = [key(candidate.secret)];
      if (candidate.previousSecret && candidate.previousSecretExpiresAt && candidate.previousSecretExpiresAt > now()) {
        keys.push(key(candidate.previousSecret));
      }
    } catch (error) {
      logger.error({ err: error, endpointId: candidate.endpointId }, "a webhook signing secret does not decrypt");
      return { kind: "failed", error: "the signing secret could not be decrypted", durationMs: 0 };
    }
    return sender.send(candidate.url, candidate.payload, signatureHeaders(candidate.messageId, new Date(), candidate.payload, keys));
  }

  /** Each attempt's row in the log, and its delivery moved on: delivered, failed, or due again later. */
  async #recordAttempts(batch: Recorded[]): Promise<void> {
    const rows = batch.map(({ candidate, result, decision }) => ({
      attempt_id: newId(),
      delivery_id: candidate.deliveryId,
      endpoint_id: candidate.endpointId,
      attempt: candidate.attempts + 1,
      status: decision.status,
      response_status: result.kind === "answered" ? result.status : null,
      duration_ms: Math.round(result.durationMs),
      error: result.kind === "failed" ? result.error : null,
      retry_in_ms: decision.retryInMs,
      redeliveries: candidate.redeliveries,
    }));
    const json = JSON.stringify(rows);
    await this.#options.db.transaction().execute(async (trx) => {
      await sql`
        insert into webhook_attempts (attempt_id, delivery_id, endpoint_id, attempt, status, response_status, duration_ms,
                                      error, next_attempt_at, created_at)
        select attempt_id, delivery_id, endpoint_id, attempt, status, response_status, duration_ms, error,
               now() + retry_in_ms * interval '1 millisecond', now()
        from jsonb_to_recordset(${json}::jsonb)
          as row(attempt_id uuid, delivery_id uuid, endpoint_id uuid, attempt int, status text, response_status int,
                 duration_ms int, error text, retry_in_ms bigint)
      `.execute(trx);
      // A redelivery asked for while the attempt ran stands: the delivery is due again, on a new schedule.
      await sql`
        update webhook_deliveries d
        set attempts = row.attempt,
            status = case when d.redeliveries = row.redeliveries then row.status else 'pending' end,
            round_start = case when d.redeliveries = row.redeliveries then d.round_start else row.attempt end,
            next_attempt_at = case when d.redeliveries = row.redeliveries
                                   then coalesce(now() + row.retry_in_ms * interval '1 millisecond', d.next_attempt_at)
                                   else now() end,
            updated_at = now()
        from jsonb_to_recordset(${json}::jsonb)
          as row(delivery_id uuid, attempt int, status text, retry_in_ms bigint, redeliveries int)
        where d.delivery_id = row.delivery_id
      `.execute(trx);
    });
  }
}
