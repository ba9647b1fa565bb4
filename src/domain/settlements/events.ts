import { v5 } from "uuid";
import type { Processor } from "../host-configurations/schemas.ts";
import type { SettlementTotals } from "./totals.ts";

/** A settlement batch: its own stream, opened before the processor is asked to close it. */
export const settlementStreamId = (settlementId: string) => `settlement-${settlementId}`;

const SCHEDULED_BATCH_NAMESPACE = "0b8f8c1e-4c1a-4f5e-9a53-5d6b1f7e2c40";

/** The one id a host configuration's scheduled batch of a day has, whichever instance opens it. */
export const scheduledSettlementId = (hostConfigurationId: string, localDate: string) =>
  v5(`${hostConfigurationId}/${localDate}`, SCHEDULED_BATCH_NAMESPACE);

/**
 * A batch was opened for these candidates: approved sales, captures and refunds of the host
 * configuration, not voided and not settled, made up to `cutoff`. `localDate` names the scheduled
 * day it closes (one batch a day); `null` for an operator's manual close.
 */
export type SettlementOpened = {
  type: "SettlementOpened.v1";
  data: {
    settlementId: string;
    clientId: string;
    processor: Processor;
    hostConfigurationId: string;
    localDate: string | null;
    cutoff: string;
    candidates: { transactionId: string; paymentId: string }[];
    occurredAt: string;
  };
};

/**
 * The processor closed the batch. `transactionIds` are the candidates the ledger settled (one
 * voided meanwhile is left out); `totals` are the ledger's for them, `processorTotals` the
 * processor's own count, and `status` whether they agree.
 */
export type SettlementClosed = {
  type: "SettlementClosed.v1";
  data: {
    settlementId: string;
    transactionIds: string[];
    totals: SettlementTotals[];
    processorTotals: SettlementTotals[];
    status: "matched" | "mismatched";
    occurredAt: string;
  };
};

/** The processor refused to close the batch: nothing in it settled; its transactions wait for the next one. */
export type SettlementFailed = {
  type: "SettlementFailed.v1";
  data: { settlementId: string; message: string; occurredAt: string };
};

export type SettlementEvent = SettlementOpened | SettlementClosed | SettlementFailed;

export const settlementEventTypes = [
  "SettlementOpened.v1",
  "SettlementClosed.v1",
  "SettlementFailed.v1",
] as const satisfies readonly SettlementEvent["type"][];
