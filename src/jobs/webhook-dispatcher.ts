import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { batchWhileBusy } from "../batching/batch-while-busy.ts";
import { disableWebhookEndpoint, webhookSecretContext } from "../commands/webhook-endpoints.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { WebhookDisabledReason } from "../domain/webhooks/endpoint.ts";
import { type RetryDecision, retryDecision } from "../domain/webhooks/retry-schedule.ts";
import { Secret } from "../domain/secret.ts";
import { newId } from "../ids.ts";
import type { Logger } from "../logger.ts";
import { acquireLease, releaseLease } from "../projections/checkpoints.ts";
import type { ReadYourWrites } from "../projections/read-your-writes.ts";
import { waitForWebhookEndpointWrite } from "../projections/webhooks/own-writes.ts";
import type { SendResult, WebhookSender } from "../webhooks/destination.ts";
import { signatureHeaders } from "../webhooks/signature.ts";
import { type AttemptRow, recordAttemptsStatement } from "./webhook-attempts.ts";
import { type DueDelivery, readDueDeliveries } from "./webhook-due-deliveries.ts";
import { type Span, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { inSpan, linkTo, withTraceHeaders } from "../telemetry/spans.ts";
import type { JobContext } from "./job-context.ts";

/** How an attempt ended, for the metrics: `retrying` failed with a retry scheduled. */
export type WebhookAttemptOutcome = "delivered" | "retrying" | "failed";

export interface WebhookDispatcherOptions {
  /**
   * The stores, and the clock of the events: a rotated secret's 24 hours, an endpoint's 3 days of
   * failures and the spacing of failure warnings are counted on it.
   */
  context: JobContext;
  /** What the projection runners applied: an endpoint this dispatcher disabled is out of its next look. */
  readYourWrites: ReadYourWrites;
  secrets: SecretBox;
  sender: WebhookSender;
  logger: Logger;
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
/** An endpoint whose every attempt has failed this long is disabled (API.md). */
const FAILING_ENDPOINT_DISABLED_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
/** A failing endpoint is warned of at most once in this while, with the count of failures since the last warning. */
const FAILURE_WARNING_INTERVAL_MS = 10 * 60 * 1000;
const MAX_WARNED_ENDPOINTS = 10_000;
/**
 * How long the look after a finished send waits, so that the sends finishing in that moment share
 * one look at the outbox: one per send was a query per delivery (on the embedded database a
 * sixth of the service's thread at 25 operations a second), for a message's successor a few
 * milliseconds sooner.
 */
const LOOK_GATHER_MS = 25;

type Recorded = { candidate: DueDelivery; result: SendResult; decision: RetryDecision };
/** After an attempt is recorded: whether its endpoint's every attempt has now failed for 3 days. */
type RecordedOutcome = { failingTooLong: boolean };

/**
 * Sends the outbox's deliveries, on one instance at a time (a lease like the projections').
 *
 * Each look at the outbox takes, per enabled endpoint, the next due deliveries (an index scan of
 * that endpoint's pending rows), so one endpoint's backlog never hides another's. Sends run
 * concurrently: at most `maxInFlightPerEndpoint` requests awaiting an endpoint's answer, and
 * `maxInFlight` attempts in all until their outcomes are recorded. An answer starts the endpoint's
 * next candidate at once, and the dispatcher looks again only when the endpoint has none.
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
  readonly #inFlight = new Map<string, { candidate: DueDelivery; sent: Promise<void> }>();
  readonly #busy = new Map<string, number>();
  #candidates = new Map<string, DueDelivery[]>();
  #leaseRenewedAt = 0;
  #leading = false;
  #looking: Promise<void> | undefined;
  #lookAgain = false;
  #lookSoon: NodeJS.Timeout | undefined;
  /** Deliveries whose send ended while a look's query ran: its rows may predate their outcome. */
  #endedDuringLook: Set<string> | undefined;
  #running: Promise<void> | undefined;
  readonly #record: (recorded: Recorded) => Promise<RecordedOutcome>;
  /** Signing keys by endpoint and ciphertext (null: it does not decrypt): one envelope decryption per secret rather than per send. */
  readonly #keys = new Map<string, Secret<string> | null>();
  /** Disables under way, by endpoint: the sends that find the same fault wait for the one disable. */
  readonly #disabling = new Map<string, Promise<void>>();
  /** Per failing endpoint, when it was last warned of (the events' clock) and the failures since. */
  readonly #failureWarnings = new Map<string, { warnedAt: number; failures: number }>();

  constructor(options: WebhookDispatcherOptions) {
    this.#options = { leaseMs: 10_000, maxInFlightPerEndpoint: 8, maxInFlight: 64, ...options };
    // Attempts that end together are recorded together, in one statement.
    this.#record = batchWhileBusy((batch: Recorded[]) => this.#recordAttempts(batch));
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    clearTimeout(this.#lookSoon);
    await this.#running;
    await this.#looking;
    await Promise.all([...this.#inFlight.values()].map(({ sent }) => sent));
    await releaseLease(this.#options.context.db, LEASE, this.#owner).catch(() => {});
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
    const { context, leaseMs } = this.#options;
    const { db } = context;
    if (this.#leading && Date.now() - this.#leaseRenewedAt < leaseMs / 3) return true;
    const held = await acquireLease(db, LEASE, this.#owner, leaseMs);
    this.#leading = held;
    this.#leaseRenewedAt = held ? Date.now() : 0;
    return held;
  }

  /** Per enabled endpoint, its next due deliveries, the earliest due first. */
  async #dueCandidates(): Promise<Map<string, DueDelivery[]>> {
    const { context, maxInFlightPerEndpoint } = this.#options;
    const rows = await readDueDeliveries(context.db, [...this.#inFlight.keys()], maxInFlightPerEndpoint * 4);
    const candidates = new Map<string, DueDelivery[]>();
    for (const row of rows) {
      const list = candidates.get(row.endpointId) ?? [];
      list.push(row);
      candidates.set(row.endpointId, list);
    }
    return candidates;
  }

  /** Starts the endpoint's candidates while it and the dispatcher have room; looks again soon once none is left. */
  #startNext(endpointId: string): void {
    const { maxInFlightPerEndpoint, maxInFlight } = this.#options;
    const list = this.#candidates.get(endpointId) ?? [];
    while (list.length > 0) {
      if ((this.#busy.get(endpointId) ?? 0) >= maxInFlightPerEndpoint || this.#inFlight.size >= maxInFlight) return;
      this.#send(list.shift()!);
    }
    if (this.#stopping.signal.aborted || this.#lookSoon) return;
    this.#lookSoon = setTimeout(() => {
      this.#lookSoon = undefined;
      if (!this.#stopping.signal.aborted) void this.#look();
    }, LOOK_GATHER_MS);
  }

  #send(candidate: DueDelivery): void {
    const { endpointId, deliveryId } = candidate;
    this.#busy.set(endpointId, (this.#busy.get(endpointId) ?? 0) + 1);
    // The endpoint's slot is its request's: it frees once the endpoint has answered, while the
    // outcome is still being recorded (the delivery stays in flight, and its subject's next message
    // waits, until then).
    let holdsSlot = true;
    const freeSlot = () => {
      if (!holdsSlot) return;
      holdsSlot = false;
      const busy = (this.#busy.get(endpointId) ?? 1) - 1;
      if (busy > 0) this.#busy.set(endpointId, busy);
      else this.#busy.delete(endpointId);
    };
    const startNext = () => {
      if (!this.#stopping.signal.aborted) this.#startNext(endpointId);
    };
    const sent = this.#attempt(candidate, () => {
      freeSlot();
      startNext();
    })
      .catch((error: unknown) => {
        // Unrecorded, the delivery stays pending and due: the next look finds it again.
        this.#options.logger.error({ err: error, deliveryId }, "webhook attempt not recorded");
      })
      .finally(() => {
        this.#inFlight.delete(deliveryId);
        this.#endedDuringLook?.add(deliveryId);
        freeSlot();
        startNext();
      });
    this.#inFlight.set(deliveryId, { candidate, sent });
  }

  /**
   * Signs and sends, then records the outcome. An endpoint whose secret does not decrypt is sent
   * nothing and disabled: its messages stay owed, without an attempt counted against them.
   */
  #attempt(candidate: DueDelivery, answered: () => void): Promise<void> {
    // A trace of its own, linked to the one that recorded the event; its `traceparent` goes to the endpoint.
    const span = {
      root: true,
      kind: SpanKind.PRODUCER,
      links: linkTo(candidate.traceparent),
      attributes: {
        "ledger.delivery_id": candidate.deliveryId,
        "ledger.message_id": candidate.messageId,
        "ledger.endpoint_id": candidate.endpointId,
        "ledger.client_id": candidate.clientId,
        "ledger.attempt": candidate.attempts + 1,
        // The host only: a URL's user part or query may hold the merchant's credentials.
        "server.address": URL.parse(candidate.url)?.hostname ?? "",
      },
    };
    return inSpan(this.#options.context.registries.tracer, "webhook delivery", span, (active) => this.#sendAndRecord(candidate, active, answered));
  }

  async #sendAndRecord(candidate: DueDelivery, span: Span, answered: () => void): Promise<void> {
    const { retryBaseMs, sender, observe } = this.#options;
    const keys = this.#signingKeys(candidate);
    if (keys === undefined) return this.#disable(candidate, "secret_undecryptable");
    const headers = withTraceHeaders(signatureHeaders(candidate.messageId, new Date(), candidate.payload, keys.map((key) => key.expose())));
    const result = await sender.send(candidate.url, candidate.payload, headers);
    answered();
    const delivered = result.kind === "answered" && result.status >= 200 && result.status < 300;
    const attemptInRound = candidate.attempts + 1 - candidate.roundStart;
    const decision = retryDecision({ delivered, attemptInRound, baseMs: retryBaseMs });
    span.setAttributes({
      ...(result.kind === "answered" ? { "http.response.status_code": result.status } : { "error.type": result.error }),
      "ledger.delivery": decision.status,
    });
    if (!delivered) span.setStatus({ code: SpanStatusCode.ERROR });
    const { failingTooLong } = await this.#record({ candidate, result, decision });
    observe(decision.status === "pending" ? "retrying" : decision.status, result.durationMs);
    this.#noteOutcome(candidate, delivered ? undefined : result);
    if (failingTooLong) await this.#disable(candidate, "deliveries_failing");
  }

  /**
   * The current secret, and the previous one while it still signs; undefined when the current one
   * does not decrypt (its master key is no longer configured). A previous secret that does not
   * decrypt is left out: it only eases the 24 hours after a rotation.
   */
  #signingKeys(candidate: DueDelivery): Secret<string>[] | undefined {
    const { secrets, context } = this.#options;
    const secretContext = webhookSecretContext(candidate.endpointId);
    const key = (ciphertext: string) => {
      const cacheKey = `${secretContext}\n${ciphertext}`;
      const known = this.#keys.get(cacheKey);
      if (known !== undefined) return known;
      if (this.#keys.size >= MAX_CACHED_KEYS) this.#keys.clear();
      let plaintext: Secret<string> | null;
      try {
        plaintext = new Secret(secrets.decrypt(ciphertext, secretContext));
      } catch {
        plaintext = null;
      }
      this.#keys.set(cacheKey, plaintext);
      return plaintext;
    };
    const current = key(candidate.secret);
    if (current === null) return undefined;
    const { previousSecret, previousSecretExpiresAt } = candidate;
    const previous = previousSecret && previousSecretExpiresAt && previousSecretExpiresAt > context.now() ? key(previousSecret) : null;
    return previous === null ? [current] : [current, previous];
  }

  /**
   * Disables the endpoint as the candidate saw it; warns once, when this call disabled it. Its
   * other candidates are dropped: the next look no longer finds it enabled.
   */
  async #disable(candidate: DueDelivery, reason: WebhookDisabledReason): Promise<void> {
    const { context, logger } = this.#options;
    const { endpointId, clientId } = candidate;
    this.#candidates.delete(endpointId);
    let disabling = this.#disabling.get(endpointId);
    if (!disabling) {
      disabling = disableWebhookEndpoint(context, endpointId, reason, candidate.endpointUpdatedAt)
        .then(async (result) => {
          if (!result.ok || result.value.revision === undefined) return;
          await waitForWebhookEndpointWrite({ db: context.db, readYourWrites: this.#options.readYourWrites }, { endpointId, revision: result.value.revision });
          logger.warn({ endpointId, clientId, disabledReason: reason }, DISABLED_WARNINGS[reason]);
        })
        .catch((error: unknown) => {
          logger.warn({ err: error, endpointId }, "disabling a webhook endpoint failed; it is judged again at its next attempt");
        })
        .finally(() => this.#disabling.delete(endpointId));
      this.#disabling.set(endpointId, disabling);
    }
    await disabling;
  }

  /**
   * A failing endpoint leaves a warning at its first failure and then at most one every
   * FAILURE_WARNING_INTERVAL_MS, counting the failures in between. Deliveries in between do not
   * start the count over: a flaky endpoint (one answer in five a 500) would warn at every failure.
   */
  #noteOutcome(candidate: DueDelivery, failure: SendResult | undefined): void {
    const { endpointId, clientId } = candidate;
    if (failure === undefined) return;
    const now = this.#options.context.now().getTime();
    const warned = this.#failureWarnings.get(endpointId);
    if (warned && now - warned.warnedAt < FAILURE_WARNING_INTERVAL_MS) {
      warned.failures += 1;
      return;
    }
    if (this.#failureWarnings.size >= MAX_WARNED_ENDPOINTS) this.#failureWarnings.clear();
    this.#failureWarnings.set(endpointId, { warnedAt: now, failures: 0 });
    const outcome = failure.kind === "answered" ? { responseStatus: failure.status } : { error: failure.error };
    this.#options.logger.warn(
      { endpointId, clientId, ...outcome, failuresSinceLastWarning: (warned?.failures ?? 0) + 1 },
      "webhook deliveries to an endpoint are failing; they are retried (GET /v1/webhook-endpoints/{id}/deliveries lists the attempts)",
    );
  }

  /**
   * Each attempt's row in the log, and its delivery moved on: delivered, failed, or due again
   * later. Each endpoint's failing streak moves on too: a delivery ends it, a failure starts it
   * when none runs; an endpoint whose streak (counted from its last change, at the latest) has
   * lasted 3 days is reported failing too long.
   */
  async #recordAttempts(batch: Recorded[]): Promise<RecordedOutcome[]> {
    const now = this.#options.context.now();
    const rows = batch.map(({ candidate, result, decision }): AttemptRow => ({
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
    const failingSinceAtMost = new Date(now.getTime() - FAILING_ENDPOINT_DISABLED_AFTER_MS);
    const { rows: failing } = await recordAttemptsStatement(rows, now, failingSinceAtMost).execute(this.#options.context.db);
    const failingTooLong = new Set(failing.map((row) => row.endpointId));
    return batch.map(({ candidate }) => ({ failingTooLong: failingTooLong.has(candidate.endpointId) }));
  }
}

const DISABLED_WARNINGS: Record<WebhookDisabledReason, string> = {
  deliveries_failing:
    "every delivery to a webhook endpoint has failed for 3 days: it is disabled; enabled again (PATCH enabled: true), it gets what is owed",
  secret_undecryptable:
    "a webhook endpoint's signing secret no longer decrypts (its master key is not in SECRETS_MASTER_KEYS): it is disabled; " +
    "with a new secret (rotate-secret) and enabled again, it gets what is owed",
};
