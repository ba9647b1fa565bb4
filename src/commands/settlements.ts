import { setTimeout as sleep } from "node:timers/promises";
import type { Processor } from "../domain/host-configurations/schemas.ts";
import {
  paymentDecider,
  type PaymentEvent,
  type PaymentState,
  paymentStreamId,
  settleable,
  type TransactionState,
} from "../domain/payments/index.ts";
import type { StreamTip } from "../eventstore/hash-chain.ts";
import type { RecordedEvent } from "../eventstore/port.ts";
import { settlementClaimDecider, settlementClaimStreamId } from "../domain/settlements/claim.ts";
import { settlementDecider, type SettlementState } from "../domain/settlements/decider.ts";
import { type SettlementOpened, settlementStreamId } from "../domain/settlements/events.ts";
import { type SettledItem, totalsOf } from "../domain/settlements/totals.ts";
import { type SettlementView, toSettlementView } from "../domain/settlements/view.ts";
import type { Connectors } from "../processors/port.ts";
import type { SecretBox } from "../crypto/secrets.ts";
import type { Logger } from "../logger.ts";
import type { CommandContext } from "./context.ts";
import { execute, type KnownStream, readStream } from "./execute.ts";
import { loadHostConfiguration } from "./payments/host-configuration.ts";
import { rememberSettlementWrite } from "../projections/settlements/own-writes.ts";
import { rememberPaymentWrite } from "../projections/transactions/own-writes.ts";

export interface SettlementContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  logger: Pick<Logger, "warn" | "info" | "error">;
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

export type SettlementResult =
  | { ok: true; settlement: SettlementView }
  | {
      ok: false;
      /** `already_exists`: another instance (or an earlier pass) opened this batch. `processor_timeout`: no answer yet; the batch stays open and is finished later. */
      error: "nothing_to_settle" | "already_exists" | "settlement_in_progress" | "processor_error" | "processor_timeout";
      detail: string;
    };

/** Candidates marked settled per round trip. */
const MARKING_CHUNK = 250;
/**
 * The share of its time a close spends marking: after each chunk it waits nearly six times as
 * long as the chunk took. Flat out, a close of 10,000 took 4 s and 63 % of the other sales of
 * those seconds; at this share, 23 s and 10 % (`npm run bench:settlement`).
 */
const MARKING_SHARE = 0.15;

/**
 * Closes a batch: claims the host configuration (one batch of it at a time), opens the batch with
 * every approved sale, capture and refund of it not yet settled and made up to the cutoff (one
 * opener wins the batch's stream), then finishes it. `takeOverAfterMs`: a claim older than this
 * is stale, its batch finished or its claim released first (the lifecycle job's; an operator's
 * close waits for the job instead).
 */
export async function closeSettlement(
  context: SettlementContext,
  batch: BatchToClose,
  { takeOverAfterMs }: { takeOverAfterMs?: number } = {},
): Promise<SettlementResult> {
  const nothing = { ok: false, error: "nothing_to_settle", detail: "Nothing of this host configuration awaits settlement." } as const;
  // Looked at before claiming too: a pass that finds nothing writes nothing.
  if ((await candidatesOf(context, batch)).length === 0) return nothing;
  const claimed = await claim(context, batch, takeOverAfterMs);
  if (!claimed.ok) return claimed;
  const candidates = await candidatesOf(context, batch);
  const opened =
    candidates.length === 0
      ? undefined
      : await execute(
          context.store,
          settlementDecider,
          settlementStreamId(batch.settlementId),
          {
            type: "OpenSettlement",
            batch: {
              settlementId: batch.settlementId,
              clientId: batch.clientId,
              processor: batch.processor,
              hostConfigurationId: batch.hostConfigurationId,
              localDate: batch.localDate,
              cutoff: batch.cutoff.toISOString(),
              candidates,
            },
            now: context.now().toISOString(),
          },
          context.metadata,
        );
  if (!opened?.ok) {
    await release(context, batch);
    return opened ? { ok: false, error: "already_exists", detail: opened.detail } : nothing;
  }
  return finishSettlement(context, batch.settlementId);
}

/** The approved sales, captures and refunds of the host configuration not yet settled, made up to the cutoff. */
const candidatesOf = (context: SettlementContext, batch: BatchToClose) =>
  context.db
    .selectFrom("transactions")
    .select(["transaction_id as transactionId", "payment_id as paymentId"])
    .where("host_configuration_id", "=", batch.hostConfigurationId)
    .where("awaiting_settlement", "=", true)
    .where("created_at", "<=", batch.cutoff)
    .orderBy("created_at")
    .orderBy("transaction_id")
    .execute();

/** Claims the batch's host configuration; a stale claim's batch is finished (or its claim released) first. */
async function claim(
  context: SettlementContext,
  batch: BatchToClose,
  takeOverAfterMs: number | undefined,
): Promise<{ ok: true } | { ok: false; error: "settlement_in_progress"; detail: string }> {
  const streamId = settlementClaimStreamId(batch.hostConfigurationId);
  const busy = (claimedBy: string) =>
    ({ ok: false, error: "settlement_in_progress", detail: `Batch ${claimedBy} of this host configuration is being closed.` }) as const;
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const { state } = await readStream(context.store, settlementClaimDecider, streamId, true);
    const other = state.claimedBy !== null && state.claimedBy !== batch.settlementId ? state.claimedBy : undefined;
    const claimedAt = state.claimedBy === null ? undefined : Date.parse(state.since);
    const stale = other !== undefined && takeOverAfterMs !== undefined && context.now().getTime() - claimedAt! >= takeOverAfterMs;
    if (other !== undefined && stale) {
      const { state: otherBatch } = await readStream(context.store, settlementDecider, settlementStreamId(other), false);
      if (otherBatch.status === "open") {
        // Finishing it releases its claim; a processor that still does not answer keeps it open.
        const finished = await finishSettlement(context, other);
        if (!finished.ok && finished.error === "processor_timeout") return busy(other);
        continue;
      }
    }
    const claimed = await execute(
      context.store,
      settlementClaimDecider,
      streamId,
      { type: "Claim", settlementId: batch.settlementId, ...(stale && other ? { takeOver: other } : {}), now: context.now().toISOString() },
      context.metadata,
      { lastEventOnly: true },
    );
    return claimed.ok ? { ok: true } : busy(other ?? "another");
  }
  return busy("another");
}

/** Lets the host configuration's next batch be closed. */
async function release(context: SettlementContext, batch: { settlementId: string; hostConfigurationId: string }): Promise<void> {
  await execute(
    context.store,
    settlementClaimDecider,
    settlementClaimStreamId(batch.hostConfigurationId),
    { type: "Release", settlementId: batch.settlementId, now: context.now().toISOString() },
    context.metadata,
    { lastEventOnly: true },
  );
}

/**
 * Finishes an open batch: the processor closes it (under the batch's id, so asking again answers
 * the same) and says which candidates it settled, each of those records it in its payment, and the
 * batch records both sides' totals; then its host configuration is released for the next batch.
 * Every step may be repeated after a crash.
 */
export async function finishSettlement(context: SettlementContext, settlementId: string): Promise<SettlementResult> {
  const streamId = settlementStreamId(settlementId);
  const known = await readStream(context.store, settlementDecider, streamId, false);
  const { state } = known;
  if (state.status === "none") return { ok: false, error: "already_exists", detail: "No such batch." };
  if (state.status !== "open") {
    await release(context, state.opened);
    if (state.status === "closed") return { ok: true, settlement: answerClosed(context, state, known.tip!) };
    return { ok: false, error: "already_exists", detail: `The batch is ${state.status}.` };
  }
  const { opened } = state;
  const hostConfiguration = await loadHostConfiguration(context, opened.hostConfigurationId);
  const answer = await context.connectors[opened.processor].closeBatch({
    settlementId,
    hostConfiguration,
    transactionIds: opened.candidates.map((candidate) => candidate.transactionId),
  });
  if (answer.kind === "unknown") return { ok: false, error: "processor_timeout", detail: answer.message };
  if (answer.kind === "refused") {
    await execute(context.store, settlementDecider, streamId, { type: "FailSettlement", message: answer.message, now: context.now().toISOString() }, context.metadata);
    await release(context, opened);
    context.logger.error({ settlementId, hostConfigurationId: opened.hostConfigurationId }, "the processor refused to close a settlement batch");
    return { ok: false, error: "processor_error", detail: answer.message };
  }
  const { settled, disputed } = await markSettled(context, opened, new Set(answer.transactionIds));
  const closed = await execute(
    context.store,
    settlementDecider,
    streamId,
    {
      type: "CloseSettlement",
      transactionIds: settled.map((item) => item.transactionId),
      totals: totalsOf([...settled, ...disputed]),
      processorTotals: answer.totals,
      now: context.now().toISOString(),
    },
    context.metadata,
  );
  const final: KnownStream<SettlementState> = closed.ok ? closed : await readStream(context.store, settlementDecider, streamId, false);
  if (final.state.status !== "closed") return { ok: false, error: "already_exists", detail: `The batch is ${final.state.status}.` };
  await release(context, opened);
  const settlement = answerClosed(context, final.state, final.tip!);
  if (closed.ok && settlement.status === "mismatched") {
    context.logger.warn(
      {
        settlementId,
        hostConfigurationId: settlement.hostConfigurationId,
        totals: settlement.totals,
        processorTotals: settlement.processorTotals,
        notSettledByTheProcessor: disputed.map((item) => item.transactionId),
      },
      "settlement batch mismatched: the processor's totals differ from the ledger's",
    );
  }
  return { ok: true, settlement };
}

/** A closed batch as answered: the reads of its client that follow on this instance wait until they show it. */
function answerClosed(
  context: SettlementContext,
  { opened, closed }: Extract<SettlementState, { status: "closed" }>,
  tip: StreamTip,
): SettlementView {
  rememberSettlementWrite(context, opened.clientId, opened.settlementId, tip.revision);
  return toSettlementView(opened, closed);
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
  opened: SettlementOpened["data"],
  settledByProcessor: ReadonlySet<string>,
): Promise<{ settled: SettledTransaction[]; disputed: SettledTransaction[] }> {
  const settled: SettledTransaction[] = [];
  const disputed: SettledTransaction[] = [];
  for (let start = 0; start < opened.candidates.length; start += MARKING_CHUNK) {
    const chunkStarted = performance.now();
    const chunk = opened.candidates.slice(start, start + MARKING_CHUNK);
    const streams = await context.store.readStreams(chunk.map((candidate) => paymentStreamId(candidate.paymentId)));
    const judged = await Promise.all(
      chunk.map(async (candidate) => {
        const history = streams.get(paymentStreamId(candidate.paymentId)) ?? [];
        if (settledByProcessor.has(candidate.transactionId)) return { settled: await markOne(context, opened, candidate, history) };
        return { disputed: settledItemOf(candidate.transactionId, foldPayment(history), settleable) };
      }),
    );
    for (const outcome of judged) {
      if (outcome.settled) settled.push(outcome.settled);
      if (outcome.disputed) disputed.push(outcome.disputed);
    }
    // Payments come first: the close takes at most its share of the process and the database.
    await sleep((performance.now() - chunkStarted) * (1 / MARKING_SHARE - 1));
  }
  return { settled, disputed };
}

const foldPayment = (history: readonly RecordedEvent[]): PaymentState =>
  history.reduce((state, event) => paymentDecider.evolve(state, event as unknown as PaymentEvent), paymentDecider.initialState());

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
 * One candidate marked on the payment's stream as read (read again on a conflict); undefined when
 * the ledger refuses it. Remembered as the client's write, so this instance's next close of the
 * configuration (and the client's reads) wait until the read model no longer counts it as awaiting.
 */
async function markOne(
  context: SettlementContext,
  { settlementId, clientId }: Pick<SettlementOpened["data"], "settlementId" | "clientId">,
  { transactionId, paymentId }: { transactionId: string; paymentId: string },
  history: readonly RecordedEvent[],
): Promise<SettledTransaction | undefined> {
  const marked = await context.registries.groupCommits.execute(
    paymentDecider,
    paymentStreamId(paymentId),
    { type: "SettleTransaction", transactionId, settlementId, now: context.now().toISOString() },
    context.metadata,
    { known: { state: foldPayment(history), tip: history.at(-1) } },
  );
  if (!marked.ok) return undefined;
  if (marked.tip) rememberPaymentWrite(context, clientId, paymentId, marked.tip.revision);
  return settledItemOf(transactionId, marked.state, () => true);
}

type SettledTransaction = SettledItem & { transactionId: string };

/** The open batches older than `olderThan`: their openers died or never heard the processor. */
export async function openSettlementsBefore(context: CommandContext, olderThan: Date): Promise<string[]> {
  const rows = await context.db
    .selectFrom("settlements")
    .select("settlement_id")
    .where("status", "=", "open")
    .where("opened_at", "<", olderThan)
    .orderBy("opened_at")
    .limit(100)
    .execute();
  return rows.map((row) => row.settlement_id);
}

