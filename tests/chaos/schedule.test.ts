import { describe, expect, it } from "vitest";
import { settlementTimesBetween } from "../../bench/chaos/schedule.ts";

describe("settlement times during a chaos run", () => {
  it("names every UTC minute that comes round in the window", () => {
    const times = settlementTimesBetween(new Date("2026-03-01T12:00:37Z"), new Date("2026-03-01T12:03:00Z"));
    expect(times.map(({ settlementTime, at }) => [settlementTime, at.toISOString()])).toEqual([
      ["12:01", "2026-03-01T12:01:00.000Z"],
      ["12:02", "2026-03-01T12:02:00.000Z"],
      ["12:03", "2026-03-01T12:03:00.000Z"],
    ]);
  });

  it("takes the next minute when the window holds none, across midnight too", () => {
    const times = settlementTimesBetween(new Date("2026-03-01T23:59:20Z"), new Date("2026-03-01T23:59:50Z"));
    expect(times.map(({ settlementTime, at }) => [settlementTime, at.toISOString()])).toEqual([["00:00", "2026-03-02T00:00:00.000Z"]]);
  });
});
