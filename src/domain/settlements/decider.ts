import { accept, type Decider, reject } from "../decider.ts";
import type { SettlementClosed, SettlementEvent, SettlementOpened } from "./events.ts";
import { type SettlementTotals, totalsMatch } from "./totals.ts";

export type SettlementState =
  | { status: "none" }
  | { status: "open" | "failed"; opened: SettlementOpened["data"] }
  | { status: "closed"; opened: SettlementOpened["data"]; closed: SettlementClosed["data"] };

export type SettlementCommand =
  | { type: "OpenSettlement"; batch: Omit<SettlementOpened["data"], "occurredAt">; now: string }
  | { type: "CloseSettlement"; transactionIds: string[]; totals: SettlementTotals[]; processorTotals: SettlementTotals[]; now: string }
  | { type: "FailSettlement"; message: string; now: string };

export type SettlementFailure = "already_exists" | "invalid_settlement_state";

export const settlementDecider: Decider<SettlementState, SettlementCommand, SettlementEvent, SettlementFailure> = {
  initialState: () => ({ status: "none" }),
  evolve(state, event) {
    switch (event.type) {
      case "SettlementOpened.v1":
        return { status: "open", opened: event.data };
      case "SettlementClosed.v1":
        return state.status === "none" ? state : { status: "closed", opened: state.opened, closed: event.data };
      case "SettlementFailed.v1":
        return state.status === "none" ? state : { status: "failed", opened: state.opened };
    }
  },
  decide(command, state) {
    if (command.type === "OpenSettlement") {
      if (state.status !== "none") return reject("already_exists", "The batch is already open.");
      return accept({ type: "SettlementOpened.v1", data: { ...command.batch, occurredAt: command.now } });
    }
    if (state.status !== "open") return reject("invalid_settlement_state", `The batch is ${state.status === "none" ? "not open" : state.status}.`);
    const { settlementId } = state.opened;
    if (command.type === "FailSettlement") {
      return accept({ type: "SettlementFailed.v1", data: { settlementId, message: command.message, occurredAt: command.now } });
    }
    const { transactionIds, totals, processorTotals, now } = command;
    return accept({
      type: "SettlementClosed.v1",
      data: {
        settlementId,
        transactionIds,
        totals,
        processorTotals,
        status: totalsMatch(totals, processorTotals) ? "matched" : "mismatched",
        occurredAt: now,
      },
    });
  },
};
