import { settlementClaimTakeover } from "../../retry/policies.ts";
import { retry } from "../../retry/retry.ts";
import { settlementClaims, settlements } from "../streams.ts";
import { type BatchToClose, busy, type CloseOptions, firstEventOf, type SettlementContext, type SettlementResult } from "./batch.ts";

export type Claimed =
  /** This call claimed the host configuration for the batch. */
  | { kind: "took" }
  /** The batch's id holds the claim already: another opener of the same id has it. */
  | { kind: "shared" }
  | Extract<SettlementResult, { kind: "refused" }>;

/** A try of the claim found a stale batch holding it and finished that batch: the claim is read again. */
export class StaleHolderFinished extends Error {
  override readonly name = "StaleHolderFinished";
}

/**
 * Claims the batch's host configuration: a lease, one batch of it at a time. A stale claim of
 * another batch is taken over once that batch is finished (`finish`; or failed, if it was never
 * sealed); a stale claim of this very id whose batch never got its first event is this opener's to
 * take (its first opener died). Stale holders finished one after another are taken over at most
 * as often as `settlementClaimTakeover` tries; after, the configuration is answered busy.
 */
export async function claim(
  context: SettlementContext,
  batch: BatchToClose,
  { staleAfterMs }: CloseOptions,
  finish: (settlementId: string) => Promise<SettlementResult>,
): Promise<Claimed> {
  try {
    return await retry(settlementClaimTakeover, () => tryClaim(context, batch, staleAfterMs, finish));
  } catch (error) {
    if (error instanceof StaleHolderFinished) return busy("another");
    throw error;
  }
}

async function tryClaim(
  context: SettlementContext,
  batch: BatchToClose,
  staleAfterMs: number,
  finish: (settlementId: string) => Promise<SettlementResult>,
): Promise<Claimed> {
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
      const finished = await finish(other);
      if (finished.kind === "batch" && finished.settlement.status === "closing") return busy(other);
      throw new StaleHolderFinished(`Batch ${other} held the claim stale and was finished`);
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

type ClaimedBatch = { settlementId: string; hostConfigurationId: string };

/** Tells the lifecycle job the batch is still being closed (see resumeSettlement). */
export const renew = (context: SettlementContext, batch: ClaimedBatch) => updateClaim(context, batch, "Renew");

/** Lets the host configuration's next batch be closed. */
export const release = (context: SettlementContext, batch: ClaimedBatch) => updateClaim(context, batch, "Release");

async function updateClaim(context: SettlementContext, batch: ClaimedBatch, type: "Renew" | "Release"): Promise<void> {
  await settlementClaims.handle(context, batch.hostConfigurationId, { type, settlementId: batch.settlementId, now: context.now().toISOString() });
}
