import type { Processor } from "../host-configurations/schemas.ts";
import { settlementDecider, type SettlementState } from "./decider.ts";
import type { SettlementEvent } from "./events.ts";
import type { SettlementTotals } from "./totals.ts";

/**
 * The settlement batch object of the API, exactly. `transactionCount`: the transactions the batch
 * takes while closing, those it settled once closed (none when failed); the transactions
 * themselves are paged apart, never listed here.
 */
export interface SettlementView {
  id: string;
  clientId: string;
  processor: Processor;
  hostConfigurationId: string;
  /** When it closed or failed; null while closing. */
  closedAt: string | null;
  cutoff: string;
  status: "closing" | "matched" | "mismatched" | "failed";
  totals: SettlementTotals[];
  processorTotals: SettlementTotals[];
  transactionCount: number;
}

/** The batch as its events leave it. */
export function toSettlementView(state: Exclude<SettlementState, { status: "none" }>): SettlementView {
  const { settlementId, clientId, processor, hostConfigurationId, cutoff } = state.batch;
  const identity = { id: settlementId, clientId, processor, hostConfigurationId, cutoff };
  switch (state.status) {
    case "opening":
      // Its candidates are still being recorded: how many is known once it is sealed.
      return { ...identity, closedAt: null, status: "closing", totals: [], processorTotals: [], transactionCount: 0 };
    case "open":
      return { ...identity, closedAt: null, status: "closing", totals: [], processorTotals: [], transactionCount: state.transactionCount };
    case "failed":
      return { ...identity, closedAt: state.failedAt, status: "failed", totals: [], processorTotals: [], transactionCount: 0 };
    case "closed": {
      const { occurredAt, status, totals, processorTotals, transactionCount } = state.closed;
      return { ...identity, closedAt: occurredAt, status, totals, processorTotals, transactionCount };
    }
  }
}

/** A closed batch as its webhooks show it, from its opening and closing events (of any version); undefined when they are not that. */
export function closedSettlementView(opened: SettlementEvent | undefined, closed: SettlementEvent): SettlementView | undefined {
  if (!opened) return undefined;
  const state = settlementDecider.evolve(settlementDecider.evolve(settlementDecider.initialState(), opened), closed);
  return state.status === "closed" ? toSettlementView(state) : undefined;
}
