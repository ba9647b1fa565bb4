import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { breachOf, type LimitUsage, type LimitUsageEvent, limitUsageDecider, openReservations } from "../../../src/domain/limits/usage.ts";
import { deciderSpec } from "../../support/decider-spec.ts";

const now = "2026-11-22T10:00:00.000Z";
const limit = { currency: "USD", maxAmountPerTransaction: 5000, dailyAmount: 20_000, dailyCount: 8 };

describe("limit usage", () => {
  it("gives back a returned part of a reservation (an authorization's released rest), leaving it open and counted for the rest", () => {
    const changed = (change: "reserved" | "returned", amount: number, usedAmount: number): LimitUsageEvent => ({
      type: "LimitUsageChanged.v1",
      data: { reservationId: "r1", transactionId: "auth", change, amount, usedAmount, usedCount: 1, occurredAt: now },
    });
    const { given } = deciderSpec(limitUsageDecider);
    given([]).when({ type: "Reserve", reservationId: "r1", transactionId: "auth", amount: 1000, limit, now }).then([changed("reserved", 1000, 1000)]);
    given([changed("reserved", 1000, 1000)])
      .when({ type: "Return", reservationId: "r1", transactionId: "auth", amount: 700, now })
      .then([changed("returned", 700, 300)]);
    const events = [changed("reserved", 1000, 1000), changed("returned", 700, 300)];
    expect([...openReservations(events).values()]).toEqual([expect.objectContaining({ reservationId: "r1", amount: 300 })]);
  });

  it("names the first limit a reservation would break and what remains", () => {
    const usage: LimitUsage = { usedAmount: 18_000, usedCount: 3 };
    expect(breachOf(limit, usage, 5001)).toEqual({ limit: "maxAmountPerTransaction", value: 5000, remaining: 5000 });
    expect(breachOf(limit, usage, 2001)).toEqual({ limit: "dailyAmount", value: 20_000, remaining: 2000 });
    expect(breachOf(limit, { usedAmount: 0, usedCount: 8 }, 1)).toEqual({ limit: "dailyCount", value: 8, remaining: 0 });
    expect(breachOf(limit, usage, 2000)).toBeNull();
    expect(breachOf({ currency: "USD" }, usage, 10 ** 12)).toBeNull();
  });

  it("never lets reservations exceed the daily amount or count, whatever the sequence", () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("reserve" as const), amount: fc.integer({ min: 1, max: 6000 }) }),
      fc.record({ kind: fc.constant("release" as const), index: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let usage = limitUsageDecider.initialState();
        const held: number[] = [];
        for (const [index, action] of steps.entries()) {
          const command =
            action.kind === "reserve"
              ? { type: "Reserve" as const, reservationId: `r${index}`, transactionId: `t${index}`, amount: action.amount, limit, now }
              : held.length > 0
                ? { type: "Release" as const, reservationId: "r", transactionId: "r", amount: held.splice(action.index % held.length, 1)[0]!, now }
                : undefined;
          if (!command) continue;
          const decision = limitUsageDecider.decide(command, usage);
          if (!decision.ok) {
            expect(command.type).toBe("Reserve");
            continue;
          }
          if (command.type === "Reserve") held.push(command.amount);
          usage = decision.events.reduce(limitUsageDecider.evolve, usage);
          expect(usage.usedAmount).toBeLessThanOrEqual(limit.dailyAmount);
          expect(usage.usedCount).toBeLessThanOrEqual(limit.dailyCount);
          expect(usage.usedAmount).toBe(held.reduce((sum, amount) => sum + amount, 0));
          expect(usage.usedCount).toBe(held.length);
        }
      }),
    );
  });
});
