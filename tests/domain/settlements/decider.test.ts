import { describe, expect, it } from "vitest";
import { type SettlementClaimEvent, settlementClaimDecider } from "../../../src/domain/settlements/claim.ts";
import { fold } from "../../../src/domain/decider.ts";
import { settlementDecider, type SettlementState } from "../../../src/domain/settlements/decider.ts";
import { type BatchIdentity, CANDIDATES_PER_CHUNK, candidatesIn, type SettlementEvent } from "../../../src/domain/settlements/events.ts";
import { closedSettlementView, toSettlementView } from "../../../src/domain/settlements/view.ts";
import { deciderSpec } from "../../support/decider-spec.ts";

const settlementId = "0190a8e2-0000-7000-8000-00000000b001";
const now = "2026-06-11T04:31:00.000Z";
const batch: BatchIdentity = {
  settlementId,
  clientId: "0190a8e2-0000-7000-8000-00000000c001",
  processor: "processor_a",
  hostConfigurationId: "0190a8e2-0000-7000-8000-00000000d001",
  localDate: "2026-06-10",
  cutoff: "2026-06-11T04:30:00.000Z",
};
const candidate = (n: number) => ({
  transactionId: `0190a8e2-0000-7000-8000-${String(n).padStart(12, "0")}`,
  paymentId: `0190a8e2-0000-7000-9000-${String(n).padStart(12, "0")}`,
});
const totals = [{ currency: "USD", salesCount: 2, salesAmount: 3000, refundsCount: 0, refundsAmount: 0, netAmount: 3000 }];

const opened: SettlementEvent = { type: "SettlementOpened.v2", data: { ...batch, occurredAt: now } };
const chunk = (...ns: number[]): SettlementEvent => ({ type: "SettlementCandidatesRecorded.v1", data: { settlementId, candidates: ns.map(candidate), occurredAt: now } });
const sealed = (transactionCount: number): SettlementEvent => ({ type: "SettlementSealed.v1", data: { settlementId, transactionCount, occurredAt: now } });

const stateAfter = (events: SettlementEvent[]): SettlementState => fold(settlementDecider, events);
const { given } = deciderSpec(settlementDecider);
const failedWith = (message: string): SettlementEvent => ({ type: "SettlementFailed.v1", data: { settlementId, message, occurredAt: now } });

describe("a settlement batch recorded in chunks", () => {
  it("opens with no candidates, records them a chunk at a time, and seals with their count", () => {
    given([]).when({ type: "OpenSettlement", batch, now }).then([opened]);
    given([opened]).when({ type: "RecordCandidates", candidates: [candidate(1), candidate(2)], now }).then([chunk(1, 2)]);
    given([opened, chunk(1, 2), chunk(3)]).when({ type: "SealSettlement", now }).then([sealed(3)]);
    expect(candidatesIn([opened, chunk(1, 2), chunk(3), sealed(3)])).toEqual([candidate(1), candidate(2), candidate(3)]);
  });

  it("refuses a chunk over the bound, a second opening, candidates after the seal and a close before it", () => {
    const tooMany = Array.from({ length: CANDIDATES_PER_CHUNK + 1 }, (_, n) => candidate(n));
    given([opened]).when({ type: "RecordCandidates", candidates: tooMany, now }).thenRefused("chunk_too_large");
    given([opened]).when({ type: "OpenSettlement", batch, now }).thenRefused("already_exists");
    given([opened, chunk(1), sealed(1)]).when({ type: "RecordCandidates", candidates: [candidate(4)], now }).thenRefused("invalid_settlement_state");
    given([opened, chunk(1)]).when({ type: "CloseSettlement", transactionCount: 1, totals, processorTotals: totals, now }).thenRefused("invalid_settlement_state");
  });

  it("closes a sealed batch with a count and both sides' totals, naming the batch whole", () => {
    given([opened, chunk(1, 2), sealed(2)])
      .when({ type: "CloseSettlement", transactionCount: 2, totals, processorTotals: [], now })
      .then([
        {
          type: "SettlementClosed.v2",
          data: { settlementId, clientId: batch.clientId, processor: "processor_a", hostConfigurationId: batch.hostConfigurationId, cutoff: batch.cutoff, transactionCount: 2, totals, processorTotals: [], status: "mismatched", occurredAt: now },
        },
      ]);
  });

  it("fails an unsealed or sealed batch, never a closed one", () => {
    const fail = { type: "FailSettlement", message: "refused", now } as const;
    given([opened, chunk(1)]).when(fail).then([failedWith("refused")]);
    given([opened, chunk(1), sealed(1)]).when(fail).then([failedWith("refused")]);
    given([]).when(fail).thenRefused("invalid_settlement_state");
    const closed = settlementDecider.decide({ type: "CloseSettlement", transactionCount: 1, totals, processorTotals: totals, now }, stateAfter([opened, chunk(1), sealed(1)]));
    if (!closed.ok) throw new Error(closed.detail);
    given([opened, chunk(1), sealed(1), ...closed.events]).when(fail).thenRefused("invalid_settlement_state");
  });

  it("shows a batch as closing with its count once sealed, closed with the count settled, failed with none", () => {
    expect(toSettlementView(stateAfter([opened, chunk(1, 2), sealed(2)]) as Exclude<SettlementState, { status: "none" }>)).toMatchObject({
      status: "closing",
      closedAt: null,
      transactionCount: 2,
    });
    const failed: SettlementEvent = { type: "SettlementFailed.v1", data: { settlementId, message: "refused", occurredAt: now } };
    expect(toSettlementView(stateAfter([opened, chunk(1), sealed(1), failed]) as Exclude<SettlementState, { status: "none" }>)).toMatchObject({
      status: "failed",
      closedAt: now,
      transactionCount: 0,
    });
  });
});

describe("batches stored before chunks", () => {
  const openedV1: SettlementEvent = { type: "SettlementOpened.v1", data: { ...batch, candidates: [candidate(1), candidate(2)], occurredAt: now } };
  const closedV1: SettlementEvent = {
    type: "SettlementClosed.v1",
    data: { settlementId, transactionIds: [candidate(1).transactionId, candidate(2).transactionId], totals, processorTotals: totals, status: "matched", occurredAt: now },
  };

  it("fold: the opening holds every candidate and seals the batch; the close's list of ids becomes its count", () => {
    expect(stateAfter([openedV1])).toMatchObject({ status: "open", transactionCount: 2 });
    expect(candidatesIn([openedV1])).toEqual([candidate(1), candidate(2)]);
    const view = closedSettlementView(openedV1, closedV1);
    expect(view).toEqual({
      id: settlementId,
      clientId: batch.clientId,
      processor: "processor_a",
      hostConfigurationId: batch.hostConfigurationId,
      closedAt: now,
      cutoff: batch.cutoff,
      status: "matched",
      totals,
      processorTotals: totals,
      transactionCount: 2,
    });
    expect(view).not.toHaveProperty("transactionIds");
  });
});

describe("the host configuration's claim", () => {
  const claimed = (occurredAt: string): SettlementClaimEvent => ({ type: "SettlementClaimed.v1", data: { settlementId, occurredAt } });

  it("is renewed by its batch only, so a batch still closing is never taken for stale", () => {
    const later = "2026-06-11T04:40:00.000Z";
    const claim = deciderSpec(settlementClaimDecider);
    claim.given([claimed(now)]).when({ type: "Renew", settlementId, now: later }).then([claimed(later)]);
    claim.given([claimed(now)]).when({ type: "Renew", settlementId: batch.clientId, now: later }).thenNothing();
  });
});
