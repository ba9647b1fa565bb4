import { accept, type Decider, eventGuard, reject } from "../decider.ts";

/**
 * Which batch of a host configuration is being closed: one at a time, so that no two batches take
 * the same transactions (the processor settles each in the first batch that lists it). A batch
 * claims its host configuration before it opens and releases it once closed or failed; while it
 * closes, its finisher renews the claim (a claim not renewed for long is its dead finisher's).
 * Every event carries the whole state, so deciding needs the stream's last event only.
 */
export const settlementClaimStreamId = (hostConfigurationId: string) => `settlement-claim-${hostConfigurationId}`;

export type SettlementClaimEvent =
  | { type: "SettlementClaimed.v1"; data: { settlementId: string; occurredAt: string } }
  | { type: "SettlementReleased.v1"; data: { settlementId: string; occurredAt: string } };

export type SettlementClaim = { claimedBy: string; since: string } | { claimedBy: null };

export type SettlementClaimCommand =
  /** `takeOver`: the batch whose stale claim this one replaces. */
  | { type: "Claim"; settlementId: string; takeOver?: string; now: string }
  | { type: "Release"; settlementId: string; now: string }
  /** The batch is still being closed: its claim is not stale. */
  | { type: "Renew"; settlementId: string; now: string };

export const settlementClaimDecider: Decider<SettlementClaim, SettlementClaimCommand, SettlementClaimEvent, "settlement_in_progress"> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (_state, event) =>
    event.type === "SettlementClaimed.v1" ? { claimedBy: event.data.settlementId, since: event.data.occurredAt } : { claimedBy: null },
  isEvent: eventGuard<SettlementClaimEvent>([ "SettlementClaimed.v1", "SettlementReleased.v1" ]),
  decide(command, state) {
    const { settlementId, now: occurredAt } = command;
    if (command.type === "Release") {
      return state.claimedBy === settlementId ? accept({ type: "SettlementReleased.v1", data: { settlementId, occurredAt } }) : accept();
    }
    if (command.type === "Renew") {
      return state.claimedBy === settlementId ? accept({ type: "SettlementClaimed.v1", data: { settlementId, occurredAt } }) : accept();
    }
    if (state.claimedBy === settlementId) return accept();
    const claimed: SettlementClaimEvent = { type: "SettlementClaimed.v1", data: { settlementId, occurredAt } };
    if (state.claimedBy === null) return accept(claimed);
    if (state.claimedBy !== command.takeOver) {
      return reject("settlement_in_progress", `Batch ${state.claimedBy} of this host configuration is being closed.`);
    }
    const released: SettlementClaimEvent = { type: "SettlementReleased.v1", data: { settlementId: state.claimedBy, occurredAt } };
    return accept<SettlementClaimEvent>(released, claimed);
  },
};
