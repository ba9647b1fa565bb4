import type { Processor } from "../host-configurations/schemas.ts";
import type { SettlementClosed, SettlementOpened } from "./events.ts";
import type { SettlementTotals } from "./totals.ts";

/** The settlement batch object of the API, exactly. */
export interface SettlementView {
  id: string;
  clientId: string;
  processor: Processor;
  hostConfigurationId: string;
  closedAt: string;
  cutoff: string;
  status: "matched" | "mismatched";
  totals: SettlementTotals[];
  processorTotals: SettlementTotals[];
  transactionIds: string[];
}

export type BatchIdentity = Pick<SettlementOpened["data"], "settlementId" | "clientId" | "processor" | "hostConfigurationId" | "cutoff">;

export const toSettlementView = (opened: BatchIdentity, closed: SettlementClosed["data"]): SettlementView => ({
  id: opened.settlementId,
  clientId: opened.clientId,
  processor: opened.processor,
  hostConfigurationId: opened.hostConfigurationId,
  closedAt: closed.occurredAt,
  cutoff: opened.cutoff,
  status: closed.status,
  totals: closed.totals,
  processorTotals: closed.processorTotals,
  transactionIds: closed.transactionIds,
});
