import { describe, expect, it } from "vitest";
import { type SettlementClaimEvent, settlementClaimDecider } from "../../../src/domain/settlements/claim.ts";
import { type SettlementCommand, settlementDecider, type SettlementState } from "../../../src/domain/settlements/decider.ts";
import { type BatchIdentity, CANDIDATES_PER_CHUNK, candidatesIn, type SettlementEvent } from "../../../src/domain/settlements/events.ts";
import { closedSettlementView, toSettlementView } from "../../../src/domain/settlements/view.ts";

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

const stateAfter = (events: SettlementEvent[]): SettlementState => events.reduce(settlementDecider.evolve, settlementDecider.initialState());
/** A command without its time: every one here happens `now`. */
type Undated<Command> = Command extends unknown ? Omit<Command, "now"> : never;
const decide = (command: Undated<SettlementCommand>, events: SettlementEvent[]) =>
  settlementDecider.decide({ ...command, now } as SettlementCommand, stateAfter(events));

describe("a settlement batch recorded in chunks", () => {
  it("opens with no candidates, records them a chunk at a time, and seals with their count", () => {
    expect(decide({ type: "OpenSettlement", batch }, [])).toEqual({ ok: true, events: [opened] });
    expect(decide({ type: "RecordCandidates", candidates: [candidate(1), candidate(2)] }, [opened])).toEqual({ ok: true, events: [chunk(1, 2)] });
    expect(decide({ type: "SealSettlement" }, [opened, chunk(1, 2), chunk(3)])).toEqual({ ok: true, events: [sealed(3)] });
    expect(candidatesIn([opened, chunk(1, 2), chunk(3), sealed(3)])).toEqual([candidate(1), candidate(2), candidate(3)]);
  });

  it("refuses a chunk over the bound, a second opening, candidates after the seal and a close before it", () => {
    const tooMany = Array.from({ length: CANDIDATES_PER_CHUNK + 1 }, (_, n) => candidate(n));
    expect(decide({ type: "RecordCandidates", candidates: tooMany }, [opened])).toMatchObject({ ok: false, error: "chunk_too_large" });
    expect(decide({ type: "OpenSettlement", batch }, [opened])).toMatchObject({ ok: false, error: "already_exists" });
    expect(decide({ type: "RecordCandidates", candidates: [candidate(4)] }, [opened, chunk(1), sealed(1)])).toMatchObject({ ok: false, error: "invalid_settlement_state" });
    const close = { type: "CloseSettlement", transactionCount: 1, totals, processorTotals: totals } as const;
    expect(decide(close, [opened, chunk(1)])).toMatchObject({ ok: false, error: "invalid_settlement_state" });
  });

  it("closes a sealed batch with a count and both sides' totals, naming the batch whole", () => {
    const close = { type: "CloseSettlement" as const, transactionCount: 2, totals, processorTotals: [] };
    const decided = decide(close, [opened, chunk(1, 2), sealed(2)]);
    expect(decided).toEqual({
      ok: true,
      events: [
        {
          type: "SettlementClosed.v2",
          data: { settlementId, clientId: batch.clientId, processor: "processor_a", hostConfigurationId: batch.hostConfigurationId, cutoff: batch.cutoff, transactionCount: 2, totals, processorTotals: [], status: "mismatched", occurredAt: now },
        },
      ],
    });
  });

  it("fails an unsealed or sealed batch, never a closed one", () => {
    const fail = { type: "FailSettlement", message: "refused" } as const;
    expect(decide(fail, [opened, chunk(1)])).toMatchObject({ ok: true, events: [{ type: "SettlementFailed.v1" }] });
    expect(decide(fail, [opened, chunk(1), sealed(1)])).toMatchObject({ ok: true });
    expect(decide(fail, [])).toMatchObject({ ok: false, error: "invalid_settlement_state" });
    const closed = decide({ type: "CloseSettlement", transactionCount: 1, totals, processorTotals: totals }, [opened, chunk(1), sealed(1)]);
    if (!closed.ok) throw new Error(closed.detail);
    expect(decide(fail, [opened, chunk(1), sealed(1), ...closed.events])).toMatchObject({ ok: false, error: "invalid_settlement_state" });
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
  const claimState = (events: SettlementClaimEvent[]) => events.reduce(settlementClaimDecider.evolve, settlementClaimDecider.initialState());

  it("is renewed by its batch only, so a batch still closing is never taken for stale", () => {
    const later = "2026-06-11T04:40:00.000Z";
    expect(settlementClaimDecider.decide({ type: "Renew", settlementId, now: later }, claimState([claimed(now)]))).toEqual({ ok: true, events: [claimed(later)] });
    expect(settlementClaimDecider.decide({ type: "Renew", settlementId: batch.clientId, now: later }, claimState([claimed(now)]))).toEqual({ ok: true, events: [] });
  });
});
