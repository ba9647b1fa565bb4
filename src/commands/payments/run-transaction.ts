import {
  type FailureReason,
  type InitiateTransaction,
  type Outcome,
  paymentDecider,
  type PaymentFailure,
  type PaymentState,
  type TransactionView,
  toTransactionView,
} from "../../domain/payments/index.ts";
import type { ProcessorHostConfiguration, ProcessorRequest } from "../../processors/port.ts";
import { followUpRequest } from "./follow-up-request.ts";
import type { LimitBreach } from "../../domain/limits/usage.ts";
import type { StreamTip } from "../../eventstore/hash-chain.ts";
import type { EventMetadata, Execution, KnownStream } from "../execute.ts";
import { giveLimitBack } from "../limits.ts";
import { newId } from "../../ids.ts";
import type { PaymentContext } from "./dependencies.ts";
import { outcomeToRecord } from "./outcome.ts";
import { payments } from "../streams.ts";
import { storeRecoveryForAnOutcome } from "../../retry/policies.ts";
import { retry } from "../../retry/retry.ts";

/**
 * A transaction as its payment's stream has it, with the limit it would have broken when it was
 * declined for one; `written`: where that stream stood, for the client's next reads to wait for
 * (none when the answer comes from a refusal, with no revision read).
 */
export type TransactionAsItStands = { ok: true; transaction: TransactionView; limitBreach?: LimitBreach; written?: PaymentWritten };

/** A payment's stream up to `revision`, written for (or read by) a request of `clientId`. */
export interface PaymentWritten {
  clientId: string;
  paymentId: string;
  revision: bigint;
}

export type TransactionResult =
  | TransactionAsItStands
  | { ok: false; error: PaymentFailure | "idempotency_request_in_progress"; detail: string };

/**
 * The life of one transaction: record the intent, call the processor, record its answer. A crash
 * between the two leaves a pending transaction for the resolver, never a charge with no trace.
 * A transaction id that already has its intent answers that transaction as it stands.
 */
export async function runTransaction(
  context: PaymentContext,
  paymentId: string,
  initiate: InitiateTransaction,
  requestFor: (state: PaymentState) => ProcessorRequest,
  { newPayment = false, intentMetadata = {} }: { newPayment?: boolean; intentMetadata?: EventMetadata } = {},
): Promise<TransactionResult> {
  const initiated = await recordIntent(context, paymentId, initiate, { newPayment, intentMetadata });
  if (!initiated.ok) return answerRefusedIntent(paymentId, initiate, initiated);

  return sendAndRecord(context, paymentId, initiate, requestFor(initiated.state), initiated);
}

/**
 * Sends a transaction whose intent `initiated` holds to its processor and records the answer;
 * an unknown outcome leaves it pending for the resolver.
 *
 * The resolver takes a processor's "not found" as final from the intent's recorded time on
 * (`notFoundIsFinal`), which holds only for a call started within `processorTimeoutMs` of it.
 * An intent that took longer to record (a slow or failing store) is not sent at all: it stays
 * pending, and the resolver fails it once the processor's "not found" is final.
 */
export async function sendAndRecord(
  context: PaymentContext,
  paymentId: string,
  transaction: Sent,
  request: ProcessorRequest,
  initiated: KnownStream<PaymentState>,
): Promise<TransactionResult> {
  const intentAt = initiated.state.transactions.get(transaction.transactionId)?.createdAt;
  const intentAgeMs = intentAt === undefined ? 0 : context.now().getTime() - Date.parse(intentAt);
  const sendable = intentAgeMs <= context.processorTimeoutMs;
  if (!sendable) {
    context.logger.warn({ transactionId: transaction.transactionId, intentAgeMs }, "the intent took too long to record; the processor call is not sent");
  }
  const answer = sendable ? await context.connectors[request.hostConfiguration.view.processor].submit(request) : null;
  const outcome = answer && outcomeToRecord(answer);
  const releaseTransactionId = newId();
  const recorded = outcome ? await recordOutcomeOrLeavePending(context, paymentId, transaction, outcome, releaseTransactionId, initiated) : initiated;
  const result = asRecorded(paymentId, transaction, recorded.state, recorded.tip);
  context.metrics.countTransaction(result.transaction);
  const release = await sendRelease(context, paymentId, releaseTransactionId, request.hostConfiguration, recorded);
  // The final capture answers as it stands after its release, so the client reads both at once.
  return release ? asRecorded(paymentId, transaction, release.state, release.tip) : result;
}

/**
 * Sends the release of an authorization's rest that an approved final capture's outcome
 * initiated (when this `recorded` holds it), and records its answer; the stream after it.
 */
export async function sendRelease(
  context: PaymentContext,
  paymentId: string,
  releaseTransactionId: string,
  hostConfiguration: ProcessorHostConfiguration,
  recorded: KnownStream<PaymentState>,
): Promise<KnownStream<PaymentState> | undefined> {
  const release = recorded.state.transactions.get(releaseTransactionId);
  if (release?.status !== "pending") return undefined;
  const request = followUpRequest(recorded.state, releaseTransactionId, hostConfiguration);
  await sendAndRecord(context, paymentId, { transactionId: release.id, clientId: release.clientId }, request, recorded);
  return payments.read(context, paymentId);
}

/** The transaction a processor call is for, and whose it is. */
type Sent = Pick<InitiateTransaction, "clientId" | "transactionId">;

/**
 * Binds the request's Idempotency-Key to the transaction, then appends its intent. Appends to
 * one payment are serialized in the process and decided again on the fresh stream after a
 * conflict, so racing follow-ups never fail for racing.
 */
export async function recordIntent(
  context: PaymentContext,
  paymentId: string,
  initiate: InitiateTransaction,
  { newPayment, intentMetadata }: { newPayment: boolean; intentMetadata: EventMetadata },
): Promise<Execution<PaymentState, unknown, PaymentFailure | "idempotency_request_in_progress">> {
  if (context.bindIdempotencyKey && !(await context.bindIdempotencyKey({ transactionId: initiate.transactionId, paymentId }))) {
    return {
      ok: false,
      error: "idempotency_request_in_progress",
      detail: "Another request has taken over this Idempotency-Key.",
      state: paymentDecider.initialState(),
    };
  }
  return payments.handle(context, paymentId, initiate, { metadata: intentMetadata, ...(newPayment && { known: newPaymentStream }) });
}

/**
 * Records a transaction whose intent `initiated` holds as failed for `reason`, which ends it
 * before anything is sent to its processor; its limit is given back as for any failure.
 */
export async function failUnsent(
  context: PaymentContext,
  paymentId: string,
  transaction: Sent,
  reason: FailureReason,
  initiated: KnownStream<PaymentState>,
): Promise<TransactionResult> {
  const outcome = { status: "failed", reason, processorResponse: null } as const;
  const recorded = await recordOutcomeOrLeavePending(context, paymentId, transaction, outcome, newId(), initiated);
  const result = asRecorded(paymentId, transaction, recorded.state, recorded.tip);
  context.metrics.countTransaction(result.transaction);
  return result;
}

/**
 * Records the transaction's outcome (`RecordOutcome`): the processor's answer, or a failure decided
 * before anything was sent. It is a fact that already happened: a conflict is decided again
 * until it lands, and a failing store is retried for a while (`storeRecoveryForAnOutcome`); if it
 * still fails, the transaction stays pending as its intent left it, and the resolver will learn
 * the answer from the processor.
 */
async function recordOutcomeOrLeavePending(
  context: PaymentContext,
  paymentId: string,
  initiate: Sent,
  outcome: Outcome,
  releaseTransactionId: string,
  initiated: KnownStream<PaymentState>,
): Promise<KnownStream<PaymentState>> {
  const record = async () => {
    try {
      const recorded = await payments.handle(
        context,
        paymentId,
        { type: "RecordOutcome", transactionId: initiate.transactionId, outcome, releaseTransactionId, now: context.now().toISOString() },
        { known: initiated },
      );
      // Refused: another writer (the resolver) recorded this transaction first; its record stands.
      if (recorded.ok && recorded.events.length > 0) {
        await giveLimitBack(context, paymentId, recorded).catch((error: unknown) =>
          // The limit sweeper gives back what a failed release leaves taken.
          context.logger.error({ err: error, transactionId: initiate.transactionId }, "giving a limit back failed"),
        );
      }
      return recorded.ok ? recorded : await payments.read(context, paymentId);
    } catch (error) {
      context.logger.error({ err: error, transactionId: initiate.transactionId }, "recording a processor's answer failed");
      throw error;
    }
  };
  return retry(storeRecoveryForAnOutcome, record).catch(() => initiated);
}

/**
 * The transaction as `state` has it, with the limit a limit decline would have broken; given the
 * stream's `tip`, where the stream stood for it.
 */
export function asRecorded(
  paymentId: string,
  initiate: Pick<InitiateTransaction, "clientId" | "transactionId">,
  state: PaymentState,
  tip: StreamTip | undefined,
): TransactionAsItStands {
  const transaction = toTransactionView(state, initiate.transactionId);
  if (!transaction) throw new Error("an initiated transaction is missing from its payment");
  const recorded = state.transactions.get(initiate.transactionId);
  const limitBreach = recorded?.status === "declined" ? recorded.limitBreach : undefined;
  const written = tip && { clientId: initiate.clientId, paymentId, revision: tip.revision };
  return { ok: true, transaction, ...(limitBreach && { limitBreach }), ...(written && { written }) };
}

/** The transaction of that id as its payment's stream has it now; none while its intent is not recorded. */
export async function transactionAsItStands(
  context: PaymentContext,
  { transactionId, paymentId }: { transactionId: string; paymentId: string },
): Promise<TransactionAsItStands | undefined> {
  const { state, tip } = await payments.read(context, paymentId);
  const transaction = state.transactions.get(transactionId);
  if (!transaction) return undefined;
  return asRecorded(paymentId, { clientId: transaction.clientId, transactionId }, state, tip);
}

/**
 * The answer to a refused intent: when the refusal was that this transaction is already recorded
 * (a retry that took over its Idempotency-Key raced the first request), the transaction as it
 * stands; otherwise the refusal.
 */
export function answerRefusedIntent(
  paymentId: string,
  initiate: InitiateTransaction,
  refused: Extract<Awaited<ReturnType<typeof recordIntent>>, { ok: false }>,
): TransactionResult {
  const existing = refused.state.transactions.get(initiate.transactionId);
  if (refused.error !== "already_exists" || !existing || existing.clientId !== initiate.clientId) return refused;
  return asRecorded(paymentId, initiate, refused.state, undefined);
}

/** A payment's stream before its first transaction: a new id, so there is nothing to read. */
export const newPaymentStream: KnownStream<PaymentState> = { state: paymentDecider.initialState(), tip: undefined };
