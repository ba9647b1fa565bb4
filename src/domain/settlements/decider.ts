import { accept, type Decider, eventGuard, reject } from "../decider.ts";
import {
  type BatchIdentity,
  batchIdentityOf,
  CANDIDATES_PER_CHUNK,
  type ClosedBatch,
  closedBatchOf,
  type SettlementCandidate,
  type SettlementEvent,
  settlementEventTypes,
} from "./events.ts";
import { type SettlementTotals, totalsMatch } from "./totals.ts";

/**
 * A batch's life: `opening` while its candidates are recorded, `open` once sealed (the processor
 * may be asked from then on), then `closed` or `failed`.
 */
export type SettlementState =
  | { status: "none" }
  | { status: "opening"; batch: BatchIdentity; openedAt: string; candidateCount: number }
  | { status: "open"; batch: BatchIdentity; openedAt: string; transactionCount: number }
  | { status: "failed"; batch: BatchIdentity; message: string; failedAt: string }
  | { status: "closed"; batch: BatchIdentity; closed: ClosedBatch };

export type SettlementCommand =
  | { type: "OpenSettlement"; batch: BatchIdentity; now: string }
  | { type: "RecordCandidates"; candidates: SettlementCandidate[]; now: string }
  | { type: "SealSettlement"; now: string }
  | { type: "CloseSettlement"; transactionCount: number; totals: SettlementTotals[]; processorTotals: SettlementTotals[]; now: string }
  | { type: "FailSettlement"; message: string; now: string };

export type SettlementFailure = "already_exists" | "invalid_settlement_state" | "chunk_too_large";

export const settlementDecider: Decider<SettlementState, SettlementCommand, SettlementEvent, SettlementFailure> = {
  initialState: () => ({ status: "none" }),
  isEvent: eventGuard<SettlementEvent>(settlementEventTypes),
  evolve(state, event) {
    switch (event.type) {
      case "SettlementOpened.v1":
        return { status: "open", batch: batchIdentityOf(event), openedAt: event.data.occurredAt, transactionCount: event.data.candidates.length };
      case "SettlementOpened.v2":
        return { status: "opening", batch: batchIdentityOf(event), openedAt: event.data.occurredAt, candidateCount: 0 };
      case "SettlementCandidatesRecorded.v1":
        return state.status === "opening" ? { ...state, candidateCount: state.candidateCount + event.data.candidates.length } : state;
      case "SettlementSealed.v1":
        return state.status === "opening"
          ? { status: "open", batch: state.batch, openedAt: state.openedAt, transactionCount: event.data.transactionCount }
          : state;
      case "SettlementClosed.v1":
      case "SettlementClosed.v2":
        return state.status === "none" ? state : { status: "closed", batch: state.batch, closed: closedBatchOf(event) };
      case "SettlementFailed.v1":
        return state.status === "none" ? state : { status: "failed", batch: state.batch, message: event.data.message, failedAt: event.data.occurredAt };
    }
  },
  decide(command, state) {
    const occurredAt = command.now;
    if (command.type === "OpenSettlement") {
      if (state.status !== "none") return reject("already_exists", "The batch is already open.");
      return accept({ type: "SettlementOpened.v2", data: { ...command.batch, occurredAt } });
    }
    if (state.status === "none") return reject("invalid_settlement_state", "The batch is not open.");
    const { settlementId } = state.batch;
    switch (command.type) {
      case "RecordCandidates":
        if (state.status !== "opening") return reject("invalid_settlement_state", `The batch is ${state.status}.`);
        if (command.candidates.length > CANDIDATES_PER_CHUNK) {
          return reject("chunk_too_large", `At most ${CANDIDATES_PER_CHUNK} candidates an event.`);
        }
        return accept({ type: "SettlementCandidatesRecorded.v1", data: { settlementId, candidates: command.candidates, occurredAt } });
      case "SealSettlement":
        if (state.status !== "opening") return reject("invalid_settlement_state", `The batch is ${state.status}.`);
        return accept({ type: "SettlementSealed.v1", data: { settlementId, transactionCount: state.candidateCount, occurredAt } });
      case "FailSettlement":
        if (state.status !== "opening" && state.status !== "open") return reject("invalid_settlement_state", `The batch is ${state.status}.`);
        return accept({ type: "SettlementFailed.v1", data: { settlementId, message: command.message, occurredAt } });
      case "CloseSettlement": {
        if (state.status !== "open") return reject("invalid_settlement_state", `The batch is ${state.status}.`);
        const { clientId, processor, hostConfigurationId, cutoff } = state.batch;
        const { transactionCount, totals, processorTotals } = command;
        return accept({
          type: "SettlementClosed.v2",
          data: {
            settlementId,
            clientId,
            processor,
            hostConfigurationId,
            cutoff,
            transactionCount,
            totals,
            processorTotals,
            status: totalsMatch(totals, processorTotals) ? "matched" : "mismatched",
            occurredAt,
          },
        });
      }
    }
  },
};
