import { describe, expect, it } from "vitest";
import { ThrottledLog } from "../../src/jobs/throttled-log.ts";

/** A logger that keeps each line as [level, fields, message]. */
function recordingLogger() {
  const lines: [string, object, string][] = [];
  return {
    lines,
    info: (fields: object, message: string) => void lines.push(["info", fields, message]),
    warn: (fields: object, message: string) => void lines.push(["warn", fields, message]),
  };
}

describe("a throttled job log", () => {
  it("logs `limit` lines an interval, then counts the rest by message in one line once the interval is over", () => {
    let now = 0;
    const logger = recordingLogger();
    const log = new ThrottledLog({ logger, limit: 2, intervalMs: 60_000, summary: "more than logged", now: () => now });
    for (let index = 0; index < 5; index += 1) log.info({ index }, "expired");
    log.warn({ index: 5 }, "refused");
    log.flush();
    expect(logger.lines).toEqual([
      ["info", { index: 0 }, "expired"],
      ["info", { index: 1 }, "expired"],
    ]);

    now = 60_000;
    log.flush();
    log.flush();
    expect(logger.lines.slice(2)).toEqual([["warn", { notLogged: { expired: 3, refused: 1 }, intervalMs: 60_000 }, "more than logged"]]);

    // A new interval: lines are logged one by one again.
    log.info({ index: 6 }, "expired");
    expect(logger.lines.at(-1)).toEqual(["info", { index: 6 }, "expired"]);
  });

  it("gives the count before the first line of the next interval when no flush came between", () => {
    let now = 0;
    const logger = recordingLogger();
    const log = new ThrottledLog({ logger, limit: 1, intervalMs: 1_000, summary: "more than logged", now: () => now });
    log.info({}, "resolved");
    log.info({}, "resolved");
    now = 1_500;
    log.info({ last: true }, "resolved");
    expect(logger.lines).toEqual([
      ["info", {}, "resolved"],
      ["info", { notLogged: { resolved: 1 }, intervalMs: 1_000 }, "more than logged"],
      ["info", { last: true }, "resolved"],
    ]);
  });
});
