import type { KnownStream } from "../commands/execute.ts";
import { payments } from "../commands/streams.ts";
import { sendRelease } from "../commands/payments/run-transaction.ts";
import { giveLimitBack } from "../commands/limits.ts";
import type { PaymentContext, PendingResolution } from "../commands/payments/dependencies.ts";
import { loadHostConfiguration } from "../commands/payments/host-configuration.ts";
import { followUpRequest } from "../commands/payments/follow-up-request.ts";
import { outcomeToRecord } from "../commands/payments/outcome.ts";
import {
  isReversible,
  type Outcome,
  type PaymentCommand,
  paymentDecider,
  type PaymentEvent,
  type PaymentState,
  resolverWork,
  type ResolverWork,
  type ReversalResult,
  type TransactionState,
} from "../domain/payments/index.ts";
import { newId } from "../ids.ts";
import type { InquiryOutcome, ProcessorConnector, ProcessorHostConfiguration } from "../processors/port.ts";
import { fold } from "../domain/decider.ts";
import { inSpan, linksToRecorded, traceMetadata } from "../telemetry/spans.ts";

export interface ResolverTiming {
  /** How long our own processor call may last. */
  processorTimeoutMs: number;
  /** How long the processor may still act on a request it received. */
  processorOwnTimeoutMs: number;
  /** Still pending this long after its intent: the transaction is reversed. */
  pendingReversalAfterMs: number;
}

const ageMs = (transaction: TransactionState, at: Date) => at.getTime() - Date.parse(transaction.createdAt);

/**
 * Whether a "not found" the processor gave to a question asked `askedAt` proves it never got the
 * transaction. Only the intent's time is recorded, and the call starts once the intent's append
 * returns, however long that took; so a call is only ever started within `processorTimeoutMs`
 * of its intent (`sendAndRecord`), and the processor can receive it until our connector gives
 * up, `processorTimeoutMs` later. It acts on it at most its own timeout after receiving it. The
 * bound is the intent's time plus all three; the processor's own timeout (minutes by default)
 * also covers, as margin, the network's delays and the clock skew between instances. The time
 * the question was asked counts, not the answer's: the processor answered from what it knew then.
 */
export const notFoundIsFinal = (transaction: TransactionState, timing: ResolverTiming, askedAt: Date) =>
  ageMs(transaction, askedAt) >= 2 * timing.processorTimeoutMs + timing.processorOwnTimeoutMs;

export const reversalIsDue = (transaction: TransactionState, timing: ResolverTiming, now: Date) =>
  ageMs(transaction, now) >= timing.pendingReversalAfterMs;

/**
 * Whether an answer other than an approval, to a question asked `askedAt`, ends a watched
 * failure's watch: it came `pendingReversalAfterMs` after the failure (its `updatedAt`), as long
 * as a pending transaction is asked about before it is reversed. Measured on answers, not on the
 * clock alone: a resolver kept from asking (faults, restarts) never lets a late approval go unseen.
 */
const watchIsOver = (transaction: TransactionState, timing: ResolverTiming, askedAt: Date) =>
  askedAt.getTime() - Date.parse(transaction.updatedAt) >= timing.pendingReversalAfterMs;

/** A transaction the processor has surely never received: nothing was charged. */
const neverReceived: Outcome = { status: "failed", reason: "not_found", processorResponse: null };

/**
 * Does what the resolver owes one transaction (`resolverWork`): asks the processor about a pending
 * one and records its answer, reversing it once it stayed unknown too long; sends again a void the
 * service decided on (an expiry's) that the processor does not know; finishes or starts the
 * reversal of one the processor approved after the ledger recorded it failed; watches one failed
 * on "not found". Returns what it recorded, `still_pending` when the processor gave no usable
 * answer, or null when it recorded no resolution (a watched failure the processor did not
 * approve, or another instance recorded it first).
 */
export async function resolveTransaction(
  context: PaymentContext,
  timing: ResolverTiming,
  paymentId: string,
  transactionId: string,
): Promise<PendingResolution | null> {
  const events = await payments.events(context, paymentId);
  const payment = fold(paymentDecider, events);
  const transaction = payment.transactions.get(transactionId);
  const work = transaction && resolverWork(transaction);
  if (!transaction || !work) return null;
  // A trace of its own, linked to the requests that recorded the transaction.
  const span = {
    root: true,
    links: linksToRecorded(events.filter((event) => event.data.transactionId === transactionId).map((event) => event.metadata)),
    attributes: { "ledger.transaction_id": transactionId, "ledger.payment_id": paymentId, "ledger.work": work, "ledger.processor": transaction.processor },
  };
  return inSpan(context.registries.tracer, `resolve ${work}`, span, async (active) => {
    const resolution = await resolve(context, timing, { paymentId, payment, events, transaction, work });
    active.setAttribute("ledger.resolution", resolution ?? "none");
    return resolution;
  });
}

async function resolve(
  context: PaymentContext,
  timing: ResolverTiming,
  { paymentId, payment, events, transaction, work }: { paymentId: string; payment: PaymentState; events: PaymentEvent[]; transaction: TransactionState; work: ResolverWork },
): Promise<PendingResolution | null> {
  const transactionId = transaction.id;
  const hostConfiguration = await loadHostConfiguration(context, transaction.hostConfigurationId);
  const job = { context, paymentId, transaction, hostConfiguration, connector: context.connectors[transaction.processor], timing };
  if (work === "reverse") return reverse(job);

  const askedAt = context.now();
  const answer = await job.connector.inquire({ transactionId, hostConfiguration });
  if (work === "watch") return watch(job, answer, askedAt);
  // The service decided on this void: "not found" means it never arrived, and it must. The
  // processor answers a repeated id with its first answer, so sending it again is safe.
  if (answer.kind === "not_found" && isServiceVoid(events, transactionId)) {
    const resent = outcomeToRecord(await job.connector.submit(followUpRequest(payment, transactionId, hostConfiguration)));
    return resent ? resolveWithOutcome(job, resent) : "still_pending";
  }
  const outcome =
    answer.kind === "not_found" ? (notFoundIsFinal(transaction, timing, askedAt) ? neverReceived : null) : outcomeToRecord(answer);
  if (outcome) return resolveWithOutcome(job, outcome);
  if (!isReversible(transaction) || !reversalIsDue(transaction, timing, context.now())) return "still_pending";
  return reverse(job);
}

interface Job {
  context: PaymentContext;
  paymentId: string;
  transaction: TransactionState;
  hostConfiguration: ProcessorHostConfiguration;
  connector: ProcessorConnector;
  timing: ResolverTiming;
}

/**
 * A watched failure changes only on an approval: recorded as late, it is then reversed. A
 * processor that still does not approve it once the watch is over ends the watch, if it says so
 * twice: the failure itself rests on one "not found", and an inquiry that lags behind the
 * processor's approvals can give another (the simulator's card 4000000000000424 gives two), so
 * one more answer, asked after it, must agree before nothing is watched any more.
 */
async function watch(job: Job, answer: InquiryOutcome, askedAt: Date): Promise<PendingResolution | null> {
  const { context, transaction, timing, connector, hostConfiguration } = job;
  const lateApproval = (inquired: InquiryOutcome) => (inquired.kind === "approved" ? outcomeToRecord(inquired) : null);
  const approved = lateApproval(answer);
  if (approved) return resolveWithOutcome(job, approved, "approved_late");
  if (answer.kind === "unknown" || !watchIsOver(transaction, timing, askedAt)) return null;
  const again = await connector.inquire({ transactionId: transaction.id, hostConfiguration });
  const approvedAgain = lateApproval(again);
  if (approvedAgain) return resolveWithOutcome(job, approvedAgain, "approved_late");
  if (again.kind === "unknown") return null;
  await record(job, { type: "ConfirmFailure", transactionId: transaction.id, now: context.now().toISOString() });
  return null;
}

/**
 * Resolves the transaction with the outcome learned from the processor (`RecordOutcome`); an
 * approved final capture's release of the rest, initiated with it, is then sent at once (or, failing that, resent by a later pass: `isServiceVoid`).
 */
async function resolveWithOutcome(job: Job, outcome: Outcome, resolution: PendingResolution = outcome.status): Promise<PendingResolution | null> {
  const { context, paymentId, hostConfiguration } = job;
  const releaseTransactionId = newId();
  const command = { type: "RecordOutcome" as const, transactionId: job.transaction.id, outcome, releaseTransactionId, now: context.now().toISOString() };
  const recorded = await record(job, command);
  if (!recorded) return null;
  await sendRelease(context, paymentId, releaseTransactionId, hostConfiguration, recorded);
  return resolution;
}

/**
 * Records the reversal's intent (unless one is open already: a crash or a lost answer left it),
 * sends the void, and records its answer. The intent is appended at the stream's revision, so of
 * two instances deciding at once only one records it, and only that one sends the void.
 */
async function reverse(job: Job): Promise<PendingResolution | null> {
  const { context, transaction } = job;
  let reversalId = transaction.reversalId;
  if (reversalId === null) {
    reversalId = newId();
    const requested = await record(job, {
      type: "RequestReversal",
      transactionId: transaction.id,
      reversalId,
      now: context.now().toISOString(),
    });
    if (!requested) return null;
  }
  const result = await voidAtProcessor(job, reversalId);
  // No usable answer: the open reversal is sent again, with the same id, next time.
  if (!result) return "still_pending";
  return recordResolution(
    job,
    { type: "RecordReversal", transactionId: transaction.id, reversalId, result, now: context.now().toISOString() },
    result.status === "reversed" ? "reversed" : "reversal_refused",
  );
}

/** The void's result; `null` while the processor gives no usable answer (sent again, same id, next time). */
async function voidAtProcessor({ transaction, hostConfiguration, connector, timing, context }: Job, reversalId: string): Promise<ReversalResult | null> {
  const reference = (transaction.approvedLate ?? (transaction.status === "pending" ? null : transaction.processorResponse))?.reference;
  const answer = await connector.submit({
    operation: "void",
    transactionId: reversalId,
    parentTransactionId: transaction.id,
    ...(reference ? { parentProcessorReference: reference } : {}),
    amount: transaction.amount,
    currency: transaction.currency,
    hostConfiguration,
  });
  if (answer.kind === "unknown") return null;
  const processorResponse = outcomeToRecord(answer)?.processorResponse ?? null;
  if (answer.kind === "approved") return { status: "reversed", processorResponse };
  // The void was refused: only the processor can say whether it still holds the money. A "not
  // found" that is not final yet may come before the transaction reached it, or from a search
  // that lags: counted as a refusal, so that another void is sent.
  const askedAt = context.now();
  const original = await connector.inquire({ transactionId: transaction.id, hostConfiguration });
  if (original.kind === "unknown") return null;
  const mayHoldIt = original.kind === "approved" || (original.kind === "not_found" && !notFoundIsFinal(transaction, timing, askedAt));
  return { status: mayHoldIt ? "refused" : "reversed", processorResponse };
}

/** Appends what resolves the transaction; the resolution once it is recorded, null when nothing was (another instance was first). */
async function recordResolution(job: Job, command: PaymentCommand, resolution: PendingResolution): Promise<PendingResolution | null> {
  return (await record(job, command)) ? resolution : null;
}

/**
 * Appends the decision; gives back what it made the payment stop holding of its limit. The
 * stream after it; undefined when nothing was recorded.
 */
async function record({ context, paymentId }: Job, command: PaymentCommand): Promise<KnownStream<PaymentState> | undefined> {
  const recorded = await payments.handle(context, paymentId, command, { metadata: { resolvedBy: "pending-resolver", ...traceMetadata() } });
  if (!recorded.ok || recorded.events.length === 0) return undefined;
  await giveLimitBack(context, paymentId, recorded);
  return recorded;
}

/**
 * A void the service decided on, not one a client asked for: an expiry's (`AuthorizationExpired`)
 * or a final capture's release of the rest (`AuthorizationReleased`). Nobody would ask again.
 */
const isServiceVoid = (events: readonly PaymentEvent[], transactionId: string) =>
  events.some(
    (event) =>
      (event.type === "AuthorizationExpired.v1" || event.type === "AuthorizationReleased.v1") &&
      event.data.voidTransactionId === transactionId,
  );
