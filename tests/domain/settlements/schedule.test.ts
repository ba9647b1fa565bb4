import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closeOn, latestScheduledClose } from "../../../src/domain/settlements/schedule.ts";

describe("a host configuration's daily close, in its time zone", () => {
  it.each([
    ["America/Chicago", "2026-06-10", "23:30", "2026-06-11T04:30:00.000Z"],
    ["Europe/Berlin", "2026-01-15", "23:30", "2026-01-15T22:30:00.000Z"],
    ["Asia/Kolkata", "2026-06-10", "02:00", "2026-06-09T20:30:00.000Z"],
    // Spring forward: 02:30 does not exist in New York that day; it closes at 03:30 EDT.
    ["America/New_York", "2026-03-08", "02:30", "2026-03-08T07:30:00.000Z"],
    // Fall back: 01:30 happens twice; the first one (EDT) closes the batch.
    ["America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00.000Z"],
    // Lord Howe Island moves its clocks by half an hour.
    ["Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-03T15:45:00.000Z"],
  ])("in %s on %s at %s closes at %s", (timeZone, localDate, settlementTime, expected) => {
    expect(closeOn(localDate, settlementTime, timeZone).toISOString()).toBe(expected);
  });

  it("is today's close once its time has come, else yesterday's", () => {
    const before = latestScheduledClose(new Date("2026-06-11T04:29:59Z"), "23:30", "America/Chicago");
    expect(before).toEqual({ localDate: "2026-06-09", at: new Date("2026-06-10T04:30:00Z") });
    const at = latestScheduledClose(new Date("2026-06-11T04:30:00Z"), "23:30", "America/Chicago");
    expect(at).toEqual({ localDate: "2026-06-10", at: new Date("2026-06-11T04:30:00Z") });
  });

  it("names one close a day, every day of a year, in zones with and without DST changes", () => {
    const zones = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago", "Pacific/Apia"];
    const times = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }));
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        times,
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
        (timeZone, [hour, minute], millis) => {
          const settlementTime = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
          const now = new Date(millis);
          const latest = latestScheduledClose(now, settlementTime, timeZone);
          expect(latest.at.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(closeOn(latest.localDate, settlementTime, timeZone)).toEqual(latest.at);
          // The next day's close has not come yet: no close between the latest and now was skipped.
          const next = new Date(`${latest.localDate}T00:00:00Z`);
          next.setUTCDate(next.getUTCDate() + 1);
          const nextClose = closeOn(next.toISOString().slice(0, 10), settlementTime, timeZone);
          expect(nextClose.getTime()).toBeGreaterThan(now.getTime());
          expect(nextClose.getTime()).toBeGreaterThan(latest.at.getTime());
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
