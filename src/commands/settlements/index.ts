/**
 * A settlement batch's commands, a file per job: `claim.ts` leases the host configuration (one
 * batch of it at a time), `open.ts` records the batch's candidates in chunks, `close.ts` has the
 * processor close it, `mark.ts` records each settled transaction in its payment.
 */
export {
  type BatchToClose,
  type BatchWritten,
  type CloseOptions,
  type OpenOutcome,
  type SettlementCandidates,
  type SettlementContext,
  type SettlementResult,
  settlementAsItStands,
} from "./batch.ts";
export { closeSettlement, openSettlement } from "./open.ts";
export { finishSettlement, resumeSettlement } from "./close.ts";
