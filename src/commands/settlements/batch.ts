import type { Processor } from "../../domain/host-configurations/schemas.ts";
import { fold } from "../../domain/decider.ts";
import type { SettlementState } from "../../domain/settlements/decider.ts";
import type { SettlementCandidate, SettlementEvent } from "../../domain/settlements/events.ts";
import { type SettlementView, toSettlementView } from "../../domain/settlements/view.ts";
import type { Connectors } from "../../processors/port.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import type { Logger } from "../../logger.ts";
import type { CommandContext } from "../context.ts";
import type { KnownStream } from "../execute.ts";
import type { PaymentWritten } from "../payments/run-transaction.ts";
import { settlementDecider } from "../../domain/settlements/decider.ts";
import { settlements } from "../streams.ts";

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

export const nothingToSettle = { kind: "refused", error: "nothing_to_settle", detail: "Nothing of this host configuration awaits settlement." } as const;
export const busy = (claimedBy: string) =>
  ({ kind: "refused", error: "settlement_in_progress", detail: `Batch ${claimedBy} of this host configuration is being closed.` }) as const;

/** The batch as it stands, and where its stream stood for it. */
export function answer(
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

/** The batch's first event: none while it is not opened. */
export async function firstEventOf(context: SettlementContext, settlementId: string): Promise<SettlementEvent | undefined> {
  const [first] = await settlements.events(context, settlementId, { maxCount: 1 });
  return first;
}
