import { setTimeout as sleep } from "node:timers/promises";
import type { Processor } from "../domain/host-configurations/schemas.ts";
import { fold } from "../domain/decider.ts";
import { type PaymentState, settleable, type TransactionState } from "../domain/payments/index.ts";
import { type SettlementCommand, settlementDecider, type SettlementState } from "../domain/settlements/decider.ts";
import {
  type BatchIdentity,
  CANDIDATES_PER_CHUNK,
  candidatesIn,
  type SettlementCandidate,
  type SettlementEvent,
} from "../domain/settlements/events.ts";
import { type SettledItem, totalsOf } from "../domain/settlements/totals.ts";
import { type SettlementView, toSettlementView } from "../domain/settlements/view.ts";
import type { Connectors } from "../processors/port.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Logger } from "../logger.ts";
import type { CommandContext } from "./context.ts";
import type { PaymentWritten } from "./payments/run-transaction.ts";
import type { KnownStream } from "./execute.ts";
import { payments, settlementClaims, settlements } from "./streams.ts";
import { loadHostConfiguration } from "./payments/host-configuration.ts";
import { OverloadedError } from "../overload.ts";
import { inSpan, traceMetadata } from "../telemetry/spans.ts";

export interface SettlementContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  logger: Pick<Logger, "warn" | "info" | "error">;
  settlementCandidates: SettlementCandidates;
}

/**
 * The approved sales, captures and refunds of a host configuration not yet settled, made up to a
 * cutoff: a lookup across payments, answered by the read side (src/projections) and given at
 * service start.
 */
export interface SettlementCandidates {
  /** Until every event the log holds when called is in view; `false` when `timeoutMs` ran out first. */
  catchUp(timeoutMs: number): Promise<boolean>;
  of(batch: Pick<BatchToClose, "hostConfigurationId" | "cutoff">): Promise<SettlementCandidate[]>;
}

/** The batch to close: which host configuration, under which id, and up to when. */
export interface BatchToClose {
  settlementId: string;
  hostConfigurationId: string;
  clientId: string;
  processor: Processor;
  /** The scheduled day; null for a manual close. */
  localDate: string | null;
  cutoff: Date;
}

/** A batch's stream up to `revision`, where it stood as `status`: what its client's next reads wait for. */
export interface BatchWritten {
  clientId: string;
  settlementId: string;
  revision: bigint;
  /** As the settlements read model shows the batch: closing is `open` there. */
  status: "open" | Exclude<SettlementView["status"], "closing">;
}

/**
 * What a close comes to: the batch as it stands (closing, closed or failed: `detail` says why it
 * failed or is still closing) with where its stream stood and the payments this call marked
 * settled, or why no batch was opened.
 */
export type SettlementResult =
  | { kind: "batch"; settlement: SettlementView; detail?: string; written: BatchWritten; paymentsWritten: PaymentWritten[] }
  | { kind: "refused"; error: "nothing_to_settle" | "settlement_in_progress"; detail: string };

/** How an opening went: this call opened the batch, the batch of this id exists (or is being opened), or none was opened. */
export type OpenOutcome = { kind: "opened" } | { kind: "exists" } | Extract<SettlementResult, { kind: "refused" }>;

export interface CloseOptions {
  /**
   * A claim not renewed for this long, or a batch opened this long ago and never sealed, is its
   * dead opener's or finisher's: the batch is finished (failed, if never sealed) and the claim
   * taken over.
   */
  staleAfterMs: number;
}

/** Candidates marked settled per round trip. */
const MARKING_CHUNK = 250;
/**
 * The share of its time a close spends marking: after each chunk it waits nearly six times as
 * long as the chunk took. Flat out, a close of 10,000 took 4 s and 63 % of the other sales of
 * those seconds; at this share, 23 s and 10 % (`npm run bench:settlement`).
 */
const MARKING_SHARE = 0.15;

/** How long opening a batch waits for the transactions read model to hold what the log holds. */
const READ_MODEL_WAIT_MS = 10_000;

const nothingToSettle = { kind: "refused", error: "nothing_to_settle", detail: "Nothing of this host configuration awaits settlement." } as const;
const busy = (claimedBy: string) =>
  ({ kind: "refused", error: "settlement_in_progress", detail: `Batch ${claimedBy} of this host configuration is being closed.` }) as const;

/**
 * Opens the batch, then finishes it: the scheduled close. A batch of this id that another opener
 * has is answered as it stands: finishing it is its opener's, or the lifecycle job's once stale.
 */
export async function closeSettlement(context: SettlementContext, batch: BatchToClose, options: CloseOptions): Promise<SettlementResult> {
  const opened = await openSettlement(context, batch, options);
  if (opened.kind === "refused") return opened;
  if (opened.kind === "exists") return (await settlementAsItStands(context, batch.settlementId)) ?? busy(batch.settlementId);
  return finishSettlement(context, batch.settlementId, options);
}

/**
 * Opens a batch: claims the host configuration (one batch of it at a time), then records every
 * approved sale, capture and refund of it not yet settled and made up to the cutoff, in chunks,
 * and seals it. Only the call that took the claim opens the batch, and only it releases the claim
 * if the opening fails: a second opener of the same id (another instance's scheduled pass, a
 * retried request) leaves both to the first. A failure after the batch's first event fails the
 * batch (the processor never heard of it) before releasing the claim, so nothing stays held.
 */
export async function openSettlement(context: SettlementContext, batch: BatchToClose, options: CloseOptions): Promise<OpenOutcome> {
  if ((await firstEventOf(context, batch.settlementId)) !== undefined) return { kind: "exists" };
  // The candidates come from the read side: whatever the log holds now (a sale approved, a void
  // recorded) must be in it first, or the batch would leave it out, or take it.
  if (!(await context.settlementCandidates.catchUp(READ_MODEL_WAIT_MS))) {
    throw new OverloadedError(`The transactions read model is more than ${READ_MODEL_WAIT_MS / 1000} s behind the log; the batch is not opened.`);
  }
  // Looked at before claiming too: a pass that finds nothing writes nothing.
  if ((await context.settlementCandidates.of(batch)).length === 0) return nothingToSettle;
  const claimed = await claim(context, batch, options);
  if (claimed.kind !== "took") return claimed.kind === "shared" ? { kind: "exists" } : claimed;
  try {
    const candidates = await context.settlementCandidates.of(batch);
    if (candidates.length === 0) {
      await release(context, batch);
      return nothingToSettle;
    }
    if (!(await recordBatch(context, batch, candidates))) {
      // The batch of this id had finished, and released its claim, before this one took it.
      await release(context, batch);
      return { kind: "exists" };
    }
    return { kind: "opened" };
  } catch (error) {
    await abandonOpening(context, batch, error);
    throw error;
  }
}

/** The batch's opening event, its candidates in chunks, then its seal: `false` when the batch exists already. */
async function recordBatch(context: SettlementContext, batch: BatchToClose, candidates: readonly SettlementCandidate[]): Promise<boolean> {
  const step = (command: SettlementCommand, known?: KnownStream<SettlementState>) =>
    settlements.handle(context, batch.settlementId, command, known && { known });
  const now = () => context.now().toISOString();
  const { settlementId, clientId, processor, hostConfigurationId, localDate, cutoff } = batch;
  const opened = await step({ type: "OpenSettlement", batch: { settlementId, clientId, processor, hostConfigurationId, localDate, cutoff: cutoff.toISOString() }, now: now() });
  if (!opened.ok) return false;
  let known: KnownStream<SettlementState> = opened;
  for (let start = 0; start < candidates.length; start += CANDIDATES_PER_CHUNK) {
    const recorded = await step({ type: "RecordCandidates", candidates: candidates.slice(start, start + CANDIDATES_PER_CHUNK), now: now() }, known);
    if (!recorded.ok) throw new Error(`Batch ${settlementId} could not record its candidates: ${recorded.detail}`);
    known = recorded;
  }
  const sealed = await step({ type: "SealSettlement", now: now() }, known);
  if (!sealed.ok) throw new Error(`Batch ${settlementId} could not be sealed: ${sealed.detail}`);
  return true;
}

/** After a failed opening: the batch, if it got its first event, is failed, and the claim released. Best effort: a store that is down leaves both to the lifecycle job. */
async function abandonOpening(context: SettlementContext, batch: BatchToClose, cause: unknown): Promise<void> {
  const message = `The batch could not be opened: ${cause instanceof Error ? cause.message : String(cause)}`;
  try {
    const failed = await settlements.handle(context, batch.settlementId, { type: "FailSettlement", message, now: context.now().toISOString() });
    if (!failed.ok && failed.state.status !== "none") return;
    await release(context, batch);
  } catch (error) {
    context.logger.error({ err: error, settlementId: batch.settlementId }, "a batch that failed to open could not be failed or released; the lifecycle job will");
  }
}

async function firstEventOf(context: SettlementContext, settlementId: string): Promise<SettlementEvent | undefined> {
  const [first] = await settlements.events(context, settlementId, { maxCount: 1 });
  return first;
}

type Claimed =
  /** This call claimed the host configuration for the batch. */
  | { kind: "took" }
  /** The batch's id holds the claim already: another opener of the same id has it. */
  | { kind: "shared" }
  | Extract<SettlementResult, { kind: "refused" }>;

/**
 * Claims the batch's host configuration. A stale claim of another batch is taken over once that
 * batch is finished (or failed, if it was never sealed); a stale claim of this very id whose batch
 * never got its first event is this opener's to take (its first opener died).
 */
async function claim(context: SettlementContext, batch: BatchToClose, { staleAfterMs }: CloseOptions): Promise<Claimed> {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const { state, tip } = await settlementClaims.read(context, batch.hostConfigurationId);
    const stale = state.claimedBy !== null && context.now().getTime() - Date.parse(state.since) >= staleAfterMs;
    if (state.claimedBy === batch.settlementId) {
      if (!stale || (await firstEventOf(context, batch.settlementId)) !== undefined) return { kind: "shared" };
      return { kind: "took" };
    }
    const other = state.claimedBy ?? undefined;
    if (other !== undefined && stale) {
      const { state: otherBatch } = await settlements.read(context, other);
      if (otherBatch.status === "open" || otherBatch.status === "opening") {
        // Finishing it releases its claim; a processor that still does not answer keeps it open.
        const finished = await finishSettlement(context, other, { staleAfterMs });
        if (finished.kind === "batch" && finished.settlement.status === "closing") return busy(other);
        continue;
      }
    }
    const claimed = await settlementClaims.handle(
      context,
      batch.hostConfigurationId,
      { type: "Claim", settlementId: batch.settlementId, ...(stale && other ? { takeOver: other } : {}), now: context.now().toISOString() },
      { known: { state, tip } },
    );
    if (claimed.ok) return { kind: "took" };
    return busy(other ?? "another");
  }
  return busy("another");
}

type ClaimedBatch = { settlementId: string; hostConfigurationId: string };

/** Tells the lifecycle job the batch is still being closed (see resumeSettlement). */
const renew = (context: SettlementContext, batch: ClaimedBatch) => updateClaim(context, batch, "Renew");

/** Lets the host configuration's next batch be closed. */
const release = (context: SettlementContext, batch: ClaimedBatch) => updateClaim(context, batch, "Release");

async function updateClaim(context: SettlementContext, batch: ClaimedBatch, type: "Renew" | "Release"): Promise<void> {
  await settlementClaims.handle(context, batch.hostConfigurationId, { type, settlementId: batch.settlementId, now: context.now().toISOString() });
}

/**
 * Finishes a batch: the processor closes it (under the batch's id, so asking again answers the
 * same) and says which candidates it settled, each of those records it in its payment, and the
 * batch records both sides' totals; then its host configuration is released for the next batch.
 * Every step may be repeated after a crash, and by two finishers at once. A batch never sealed is
 * failed once stale (its opener died: the processor never heard of it); a closed or failed one
 * only has its claim released. Answers the batch as it stands.
 */
export async function finishSettlement(context: SettlementContext, settlementId: string, { staleAfterMs }: CloseOptions): Promise<SettlementResult> {
  const history = await settlements.events(context, settlementId);
  const state = fold(settlementDecider, history);
  const known: KnownStream<SettlementState> = { state, tip: history.at(-1) };
  switch (state.status) {
    case "none":
      throw new Error(`No settlement batch ${settlementId}`);
    case "closed":
    case "failed":
      await release(context, state.batch);
      return answer(known);
    case "opening": {
      if (context.now().getTime() - Date.parse(state.openedAt) < staleAfterMs) return answer(known, "Its candidates are being recorded.");
      const message = "Its opener stopped before recording every candidate; nothing was sent to the processor.";
      const failed = await settlements.handle(context, settlementId, { type: "FailSettlement", message, now: context.now().toISOString() }, { known });
      return finishSettlement(context, settlementId, { staleAfterMs: failed.ok ? staleAfterMs : Infinity });
    }
    case "open":
      return closeOpenBatch(context, state, candidatesIn(history), known, staleAfterMs);
  }
}

/**
 * The lifecycle job's: finishes a batch left open whose finisher stopped renewing its claim (it
 * died, or the processor never answered it); one still being closed is answered as it stands.
 */
export async function resumeSettlement(context: SettlementContext, settlementId: string, options: CloseOptions): Promise<SettlementResult> {
  const opened = await firstEventOf(context, settlementId);
  if (opened?.type === "SettlementOpened.v1" || opened?.type === "SettlementOpened.v2") {
    const { state } = await settlementClaims.read(context, opened.data.hostConfigurationId);
    const renewedAgo = state.claimedBy === settlementId ? context.now().getTime() - Date.parse(state.since) : Infinity;
    if (renewedAgo < options.staleAfterMs) return (await settlementAsItStands(context, settlementId)) ?? busy(settlementId);
  }
  return finishSettlement(context, settlementId, options);
}

/** The close at the processor, in a span: the batch, its size, and how it ended. */
function closeOpenBatch(
  context: SettlementContext,
  open: Extract<SettlementState, { status: "open" }>,
  candidates: readonly SettlementCandidate[],
  known: KnownStream<SettlementState>,
  staleAfterMs: number,
): Promise<SettlementResult> {
  const { batch } = open;
  const attributes = {
    "ledger.settlement_id": batch.settlementId,
    "ledger.client_id": batch.clientId,
    "ledger.host_configuration_id": batch.hostConfigurationId,
    "ledger.processor": batch.processor,
    "ledger.transactions": candidates.length,
  };
  return inSpan(context.registries.tracer, "settlement close", { attributes }, async (span) => {
    const result = await closeAtProcessor(context, open, candidates, known, staleAfterMs);
    span.setAttribute("ledger.settlement", result.kind === "batch" ? result.settlement.status : result.error);
    return result;
  });
}

async function closeAtProcessor(
  context: SettlementContext,
  { batch }: Extract<SettlementState, { status: "open" }>,
  candidates: readonly SettlementCandidate[],
  known: KnownStream<SettlementState>,
  staleAfterMs: number,
): Promise<SettlementResult> {
  const { settlementId } = batch;
  await renew(context, batch);
  const hostConfiguration = await loadHostConfiguration(context, batch.hostConfigurationId);
  const processorAnswer = await context.connectors[batch.processor].closeBatch({
    settlementId,
    hostConfiguration,
    transactionIds: candidates.map((candidate) => candidate.transactionId),
  });
  if (processorAnswer.kind === "unknown") {
    return answer(known, `${processorAnswer.message} The batch stays open and is closed as soon as the processor answers.`);
  }
  if (processorAnswer.kind === "refused") {
    const failed = await settlements.handle(context, settlementId, { type: "FailSettlement", message: processorAnswer.message, now: context.now().toISOString() }, { known });
    context.logger.error({ settlementId, hostConfigurationId: batch.hostConfigurationId }, "the processor refused to close a settlement batch");
    return settled(context, failed.ok ? failed : await settlements.read(context, settlementId));
  }
  let renewedAt = performance.now();
  const keepClaim = async () => {
    if (performance.now() - renewedAt < staleAfterMs / 4) return;
    renewedAt = performance.now();
    await renew(context, batch);
  };
  const { settled: marked, disputed, paymentsWritten } = await markSettled(context, batch, candidates, new Set(processorAnswer.transactionIds), keepClaim);
  const closed = await settlements.handle(
    context,
    settlementId,
    {
      type: "CloseSettlement",
      transactionCount: marked.length,
      totals: totalsOf([...marked, ...disputed]),
      processorTotals: processorAnswer.totals,
      now: context.now().toISOString(),
    },
    // settlement.closed's deliveries link back to this close.
    { metadata: traceMetadata() },
  );
  const result = await settled(context, closed.ok ? closed : await settlements.read(context, settlementId), paymentsWritten);
  if (closed.ok && result.kind === "batch") {
    const { status, transactionCount, totals, processorTotals } = result.settlement;
    const fields = { settlementId, clientId: batch.clientId, hostConfigurationId: batch.hostConfigurationId, status, transactionCount, totals };
    if (status === "mismatched") {
      context.logger.warn(
        { ...fields, processorTotals, notSettledByTheProcessor: disputed.map((item) => item.transactionId) },
        "settlement batch mismatched: the processor's totals differ from the ledger's",
      );
    } else {
      context.logger.info(fields, "settlement batch closed; its totals match the processor's");
    }
  }
  return result;
}

/** A batch that closed or failed (by this finisher or another): its claim released, the batch answered. */
async function settled(
  context: SettlementContext,
  known: KnownStream<SettlementState>,
  paymentsWritten: PaymentWritten[] = [],
): Promise<SettlementResult> {
  if (known.state.status === "closed" || known.state.status === "failed") await release(context, known.state.batch);
  return answer(known, undefined, paymentsWritten);
}

/** The batch as it stands, and where its stream stood for it. */
function answer(
  { state, tip }: KnownStream<SettlementState>,
  detail?: string,
  paymentsWritten: PaymentWritten[] = [],
): SettlementResult {
  if (state.status === "none" || !tip) throw new Error("A batch with no events has no answer");
  const status: BatchWritten["status"] = state.status === "closed" ? state.closed.status : state.status === "failed" ? "failed" : "open";
  const written = { clientId: state.batch.clientId, settlementId: state.batch.settlementId, revision: tip.revision, status };
  const settlement = toSettlementView(state);
  const why = detail ?? (state.status === "failed" ? state.message : undefined);
  return { kind: "batch", settlement, ...(why !== undefined && { detail: why }), written, paymentsWritten };
}

/** The batch as its first and last events leave it (a cheap read, for answering a batch that another call is closing). */
export async function settlementAsItStands(context: SettlementContext, settlementId: string): Promise<SettlementResult | undefined> {
  const [first] = await settlements.events(context, settlementId, { maxCount: 1 });
  const [last] = await settlements.events(context, settlementId, { direction: "backwards", maxCount: 1 });
  if (!first || !last) return undefined;
  const state = fold(settlementDecider, first.revision === last.revision ? [first] : [first, last]);
  return answer({ state, tip: last });
}

/**
 * Records settled in its own payment each candidate the processor says it settled: the
 * processor's word decides, so a void racing the close is never counted on one side only (one the
 * processor approved first leaves the transaction out of its list; one it got after is refused
 * there). A candidate the processor left out that the ledger still holds approved, not voided
 * nor being voided, is disputed: it stays unsettled, and counts in the ledger's totals so that
 * the batch shows the difference. A chunk of candidates at a time: their payments read in one
 * query, their appends grouped, so a batch of many thousands costs hundreds of round trips.
 */
async function markSettled(
  context: SettlementContext,
  batch: BatchIdentity,
  candidates: readonly SettlementCandidate[],
  settledByProcessor: ReadonlySet<string>,
  /** Called after each chunk: a close of many thousands takes minutes. */
  keepClaim: () => Promise<void>,
): Promise<{ settled: SettledTransaction[]; disputed: SettledTransaction[]; paymentsWritten: PaymentWritten[] }> {
  const settled: SettledTransaction[] = [];
  const disputed: SettledTransaction[] = [];
  const paymentsWritten: PaymentWritten[] = [];
  for (let start = 0; start < candidates.length; start += MARKING_CHUNK) {
    const chunkStarted = performance.now();
    const chunk = candidates.slice(start, start + MARKING_CHUNK);
    const streams = await context.store.readStreams(chunk.map((candidate) => payments.streamId(candidate.paymentId)));
    const judged = await Promise.all(
      chunk.map(async (candidate): Promise<Judged> => {
        const payment = payments.fold(candidate.paymentId, streams.get(payments.streamId(candidate.paymentId)) ?? []);
        if (settledByProcessor.has(candidate.transactionId)) return markOne(context, batch, candidate, payment);
        return { disputed: settledItemOf(candidate.transactionId, payment.state, settleable) };
      }),
    );
    for (const outcome of judged) {
      if (outcome.settled) settled.push(outcome.settled);
      if (outcome.disputed) disputed.push(outcome.disputed);
      if (outcome.written) paymentsWritten.push(outcome.written);
    }
    // Payments come first: the close takes at most its share of the process and the database.
    await sleep((performance.now() - chunkStarted) * (1 / MARKING_SHARE - 1));
    await keepClaim();
  }
  return { settled, disputed, paymentsWritten };
}

/** The transaction as a batch counts it, if `counts` says it does. */
function settledItemOf(
  transactionId: string,
  state: PaymentState,
  counts: (state: PaymentState, transaction: TransactionState) => boolean,
): SettledTransaction | undefined {
  const transaction = state.transactions.get(transactionId);
  if (!transaction || transaction.type === "authorization" || transaction.type === "void" || !counts(state, transaction)) return undefined;
  return { transactionId, type: transaction.type, currency: transaction.currency, amount: transaction.amount };
}

/**
 * One candidate marked on the payment's stream as read (read again on a conflict), and where that
 * stream stood: the client's reads, and this instance's next close of the configuration, wait
 * until the read model no longer counts it as awaiting. Nothing when the ledger refuses it.
 */
async function markOne(
  context: SettlementContext,
  { settlementId, clientId }: Pick<BatchIdentity, "settlementId" | "clientId">,
  { transactionId, paymentId }: SettlementCandidate,
  payment: KnownStream<PaymentState>,
): Promise<Judged> {
  const marked = await payments.handle(
    context,
    paymentId,
    { type: "SettleTransaction", transactionId, settlementId, now: context.now().toISOString() },
    { known: payment },
  );
  if (!marked.ok) return {};
  const settled = settledItemOf(transactionId, marked.state, () => true);
  return marked.tip ? { settled, written: { clientId, paymentId, revision: marked.tip.revision } } : { settled };
}

type SettledTransaction = SettledItem & { transactionId: string };

/** A candidate as the processor's answer leaves it: settled (with where its payment's stream stood after), disputed, or neither. */
type Judged = { settled?: SettledTransaction | undefined; disputed?: SettledTransaction | undefined; written?: PaymentWritten };
