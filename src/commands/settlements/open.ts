import { CANDIDATES_PER_CHUNK, type SettlementCandidate } from "../../domain/settlements/events.ts";
import type { SettlementCommand, SettlementState } from "../../domain/settlements/decider.ts";
import { OverloadedError } from "../../overload.ts";
import type { KnownStream } from "../execute.ts";
import { settlements } from "../streams.ts";
import {
  type BatchToClose,
  busy,
  type CloseOptions,
  firstEventOf,
  nothingToSettle,
  type OpenOutcome,
  type SettlementContext,
  type SettlementResult,
  settlementAsItStands,
} from "./batch.ts";
import { claim, release } from "./claim.ts";
import { finishSettlement } from "./close.ts";

/** How long opening a batch waits for the transactions read model to hold what the log holds. */
const READ_MODEL_WAIT_MS = 10_000;

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
  const claimed = await claim(context, batch, options, (settlementId) => finishSettlement(context, settlementId, options));
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
