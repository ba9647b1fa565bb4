import { fold } from "../../domain/decider.ts";
import { settlementDecider, type SettlementState } from "../../domain/settlements/decider.ts";
import { candidatesIn, type SettlementCandidate } from "../../domain/settlements/events.ts";
import { totalsOf } from "../../domain/settlements/totals.ts";
import { inSpan, traceMetadata } from "../../telemetry/spans.ts";
import type { KnownStream } from "../execute.ts";
import { loadHostConfiguration } from "../payments/host-configuration.ts";
import type { PaymentWritten } from "../payments/run-transaction.ts";
import { settlementClaims, settlements } from "../streams.ts";
import { answer, busy, type CloseOptions, firstEventOf, type SettlementContext, type SettlementResult, settlementAsItStands } from "./batch.ts";
import { release, renew } from "./claim.ts";
import { markSettled } from "./mark.ts";

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
