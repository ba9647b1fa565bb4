import { v5 } from "uuid";
import type { Processor } from "../host-configurations/schemas.ts";
import type { SettlementTotals } from "./totals.ts";

/** A settlement batch: its own stream, opened before the processor is asked to close it. */
export const settlementStreamId = (settlementId: string) => `settlement-${settlementId}`;

const SCHEDULED_BATCH_NAMESPACE = "0b8f8c1e-4c1a-4f5e-9a53-5d6b1f7e2c40";

/** The one id a host configuration's scheduled batch of a day has, whichever instance opens it. */
export const scheduledSettlementId = (hostConfigurationId: string, localDate: string) =>
  v5(`${hostConfigurationId}/${localDate}`, SCHEDULED_BATCH_NAMESPACE);

/** A transaction a batch takes, and the payment whose stream records it settled. */
export interface SettlementCandidate {
  transactionId: string;
  paymentId: string;
}

/**
 * Candidates per `SettlementCandidatesRecorded` event: about 95 bytes each in JSON, so an event
 * stays under 50 KiB, well below EventStoreDB's 1 MiB append limit, however large the batch.
 */
export const CANDIDATES_PER_CHUNK = 500;

/**
 * What identifies a batch: which host configuration, whose, and what it takes: approved sales,
 * captures and refunds, not voided and not settled, made up to `cutoff`. `localDate` names the
 * scheduled day it closes (one batch a day); `null` for an operator's manual close.
 */
export interface BatchIdentity {
  settlementId: string;
  clientId: string;
  processor: Processor;
  hostConfigurationId: string;
  localDate: string | null;
  cutoff: string;
}

/**
 * A batch was opened: its candidates follow in chunks, then `SettlementSealed`; nothing goes to
 * the processor before that. An opener that dies before sealing leaves a batch that is failed,
 * not closed: the processor never heard of it.
 */
export type SettlementOpenedV2 = {
  type: "SettlementOpened.v2";
  data: BatchIdentity & { occurredAt: string };
};

/** Up to CANDIDATES_PER_CHUNK of the batch's candidates, in the order they are sent to the processor. */
export type SettlementCandidatesRecorded = {
  type: "SettlementCandidatesRecorded.v1";
  data: { settlementId: string; candidates: SettlementCandidate[]; occurredAt: string };
};

/** Every candidate is recorded (`transactionCount` of them): from now on the processor may be asked to close the batch. */
export type SettlementSealed = {
  type: "SettlementSealed.v1";
  data: { settlementId: string; transactionCount: number; occurredAt: string };
};

/**
 * The processor closed the batch. `transactionCount` is how many candidates the ledger settled
 * (one voided meanwhile is left out; each settled one has `TransactionSettled` on its payment);
 * `totals` are the ledger's for them, `processorTotals` the processor's own count, and `status`
 * whether they agree. It names the batch whole, so it reads without the events before it.
 */
export type SettlementClosedV2 = {
  type: "SettlementClosed.v2";
  data: Omit<BatchIdentity, "localDate"> & {
    transactionCount: number;
    totals: SettlementTotals[];
    processorTotals: SettlementTotals[];
    status: "matched" | "mismatched";
    occurredAt: string;
  };
};

/**
 * The batch will not close: the processor refused it, or its opener failed before sealing it.
 * Nothing in it settled; its transactions wait for the next one.
 */
export type SettlementFailed = {
  type: "SettlementFailed.v1";
  data: { settlementId: string; message: string; occurredAt: string };
};

/** Stored before batches were recorded in chunks: the opening event held every candidate. Read, never written. */
export type SettlementOpenedV1 = {
  type: "SettlementOpened.v1";
  data: BatchIdentity & { candidates: SettlementCandidate[]; occurredAt: string };
};

/** Stored before batches were recorded in chunks: the closing event listed every settled transaction. Read, never written. */
export type SettlementClosedV1 = {
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

export type SettlementEvent =
  | SettlementOpenedV1
  | SettlementOpenedV2
  | SettlementCandidatesRecorded
  | SettlementSealed
  | SettlementClosedV1
  | SettlementClosedV2
  | SettlementFailed;

export const settlementEventTypes = [
  "SettlementOpened.v1",
  "SettlementOpened.v2",
  "SettlementCandidatesRecorded.v1",
  "SettlementSealed.v1",
  "SettlementClosed.v1",
  "SettlementClosed.v2",
  "SettlementFailed.v1",
] as const satisfies readonly SettlementEvent["type"][];

/** What a batch's close says, whichever version recorded it. */
export type ClosedBatch = Pick<SettlementClosedV2["data"], "transactionCount" | "totals" | "processorTotals" | "status" | "occurredAt">;

export const closedBatchOf = (closed: SettlementClosedV1 | SettlementClosedV2): ClosedBatch => ({
  transactionCount: closed.type === "SettlementClosed.v1" ? closed.data.transactionIds.length : closed.data.transactionCount,
  totals: closed.data.totals,
  processorTotals: closed.data.processorTotals,
  status: closed.data.status,
  occurredAt: closed.data.occurredAt,
});

const identityOf = ({ settlementId, clientId, processor, hostConfigurationId, localDate, cutoff }: BatchIdentity): BatchIdentity => ({
  settlementId,
  clientId,
  processor,
  hostConfigurationId,
  localDate,
  cutoff,
});

export const batchIdentityOf = (opened: SettlementOpenedV1 | SettlementOpenedV2): BatchIdentity => identityOf(opened.data);

/** The candidates a batch's events record, in order: chunks, or an older batch's opening event. */
export function candidatesIn(events: readonly SettlementEvent[]): SettlementCandidate[] {
  const candidates: SettlementCandidate[] = [];
  for (const event of events) {
    if (event.type === "SettlementOpened.v1" || event.type === "SettlementCandidatesRecorded.v1") {
      for (const candidate of event.data.candidates) candidates.push(candidate);
    }
  }
  return candidates;
}
