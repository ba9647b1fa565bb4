import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConcurrencyError } from "../../src/eventstore/errors.ts";
import {
  cardPaymentsEnding,
  deadProcessLockTakeover,
  eventStoreLeaderElection,
  hotStreamRevisionConflict,
  projectionCatchUp,
  projectionReachingHead,
  readModelReachingReplay,
  storeRecoveryForAnOutcome,
  streamRevisionConflict,
} from "../../src/retry/policies.ts";
import { doubling, poll, retry, type RetryPolicy } from "../../src/retry/retry.ts";

const conflict = () => new ConcurrencyError("payment-1", 3n, 4n);

/** A call that fails with each of `failures` in turn, then answers "done"; `tries` records when each try began. */
function failingWith(failures: unknown[]) {
  const tries: number[] = [];
  const call = async () => {
    tries.push(Date.now());
    const failure = failures[tries.length - 1];
    if (failure !== undefined) throw failure;
    return "done";
  };
  return { call, tries };
}

describe("retry", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] }));
  afterEach(() => vi.useRealTimers());

  it("tries again after the failures the policy retries, pausing as its backoff says", async () => {
    const policy: RetryPolicy = { waitsFor: "a test", maxAttempts: 5, pauseMs: doubling(50, 120), retries: () => true };
    const { call, tries } = failingWith(["a", "b", "c"]);
    const done = retry(policy, call);
    await vi.runAllTimersAsync();
    expect(await done).toBe("done");
    const started = tries[0]!;
    expect(tries.map((at) => at - started)).toEqual([0, 50, 150, 270]);
  });

  it("throws the last failure, as it is, once the tries are spent", async () => {
    const policy: RetryPolicy = { waitsFor: "a test", maxAttempts: 3, pauseMs: () => 0, retries: () => true };
    const failures = [new Error("1"), new Error("2"), new Error("3"), new Error("4")];
    const { call, tries } = failingWith(failures);
    await expect(retry(policy, call)).rejects.toBe(failures[2]);
    expect(tries).toHaveLength(3);
  });

  it("throws at once a failure the policy does not retry", async () => {
    const policy: RetryPolicy = { waitsFor: "a test", maxAttempts: 5, pauseMs: () => 0, retries: (error) => error === "retried" };
    const { call, tries } = failingWith(["retried", "other", "retried"]);
    await expect(retry(policy, call)).rejects.toBe("other");
    expect(tries).toHaveLength(2);
  });

  it("begins no pause that would end beyond its time bound", async () => {
    const policy: RetryPolicy = { waitsFor: "a test", withinMs: 1_000, pauseMs: () => 300, retries: () => true };
    const { call, tries } = failingWith(Array.from({ length: 10 }, (_, index) => index));
    const done = retry(policy, call).catch((error: unknown) => error);
    await vi.runAllTimersAsync();
    // Tries at 0, 300, 600 and 900 ms: a fifth would begin at 1,200.
    expect(await done).toBe(3);
    expect(tries.map((at) => at - tries[0]!)).toEqual([0, 300, 600, 900]);
  });

  it("gives each try its number, from 1", async () => {
    const policy: RetryPolicy = { waitsFor: "a test", maxAttempts: 3, pauseMs: () => 0, retries: () => true };
    const numbers: number[] = [];
    await retry(policy, async (tryNumber) => {
      numbers.push(tryNumber);
      if (tryNumber < 3) throw new Error("again");
    });
    expect(numbers).toEqual([1, 2, 3]);
  });
});

describe("poll", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date", "performance"] }));
  afterEach(() => vi.useRealTimers());

  it("pauses, then looks, until the answer is yes", async () => {
    const looks: number[] = [];
    const started = Date.now();
    const seen = poll({ waitsFor: "a test", withinMs: 5_000, pauseMs: doubling(50, 250) }, async () => {
      looks.push(Date.now() - started);
      return looks.length === 4;
    });
    await vi.runAllTimersAsync();
    expect(await seen).toBe(true);
    expect(looks).toEqual([50, 150, 350, 600]);
  });

  it("answers false once its time is up, its last look at the bound", async () => {
    const looks: number[] = [];
    const started = Date.now();
    const seen = poll({ waitsFor: "a test", withinMs: 100, pauseMs: () => 40 }, async () => {
      looks.push(Date.now() - started);
      return false;
    });
    await vi.runAllTimersAsync();
    expect(await seen).toBe(false);
    expect(looks).toEqual([40, 80, 100]);
  });

  it("lets the caller's pause end early, told the policy's pause and the time left", async () => {
    const asked: [number, number][] = [];
    let looks = 0;
    const seen = await poll(
      { waitsFor: "a test", withinMs: 1_000, pauseMs: () => 100 },
      async () => (looks += 1) === 2,
      async (pauseMs, leftMs) => {
        asked.push([pauseMs, leftMs]);
      },
    );
    expect(seen).toBe(true);
    expect(asked).toEqual([
      [100, 1_000],
      [100, 1_000],
    ]);
  });
});

describe("the policies", () => {
  it("retry a stream revision conflict, and nothing else", () => {
    for (const policy of [streamRevisionConflict, hotStreamRevisionConflict]) {
      expect(policy.retries(conflict())).toBe(true);
      expect(policy.retries(new Error("connection reset"))).toBe(false);
    }
  });

  it("try a command 5 times on conflicts, at once after the first, then after at most 2 ms a conflict (20 at most)", () => {
    expect(streamRevisionConflict.maxAttempts).toBe(5);
    expect(streamRevisionConflict.pauseMs(1)).toBe(0);
    for (const failures of [2, 4, 10, 50]) {
      const pause = streamRevisionConflict.pauseMs(failures);
      expect(pause).toBeGreaterThanOrEqual(0);
      expect(pause).toBeLessThan(Math.min(failures, 10) * 2);
    }
  });

  it("bound a hot stream's batch to 1,000 tries, jittered from the first conflict", () => {
    expect(hotStreamRevisionConflict.maxAttempts).toBe(1_000);
    expect(hotStreamRevisionConflict.pauseMs(1)).toBeLessThan(2);
    expect(hotStreamRevisionConflict.pauseMs(1_000)).toBeLessThan(20);
  });

  it("wait 15 s for a failing store to take a processor's answer, any failure, pauses doubling from 50 ms to 1 s", () => {
    expect(storeRecoveryForAnOutcome.withinMs).toBe(15_000);
    expect(storeRecoveryForAnOutcome.retries(new Error("connection terminated"))).toBe(true);
    expect([1, 2, 3, 4, 5, 6, 7].map(storeRecoveryForAnOutcome.pauseMs)).toEqual([50, 100, 200, 400, 800, 1_000, 1_000]);
  });

  it("wait 10 s for an EventStoreDB leader, transient failures only, pauses doubling from 50 ms to 250 ms", () => {
    expect(eventStoreLeaderElection.withinMs).toBe(10_000);
    expect([1, 2, 3, 4, 9].map(eventStoreLeaderElection.pauseMs)).toEqual([50, 100, 200, 250, 250]);
    expect(eventStoreLeaderElection.retries(conflict())).toBe(false);
  });

  it("compare a read model with its replay at once, then every 200 ms, as long as the caller says", () => {
    expect(readModelReachingReplay(10_000)).toMatchObject({ withinMs: 10_000 });
    expect([1, 2, 3].map(readModelReachingReplay(10_000).pauseMs)).toEqual([0, 200, 200]);
  });

  it("take a dead process's lock file over once, at once, when the link finds it there", () => {
    expect(deadProcessLockTakeover).toMatchObject({ maxAttempts: 2 });
    expect(deadProcessLockTakeover.pauseMs(1)).toBe(0);
    expect(deadProcessLockTakeover.retries(Object.assign(new Error("exists"), { code: "EEXIST" }))).toBe(true);
    expect(deadProcessLockTakeover.retries(Object.assign(new Error("denied"), { code: "EACCES" }))).toBe(false);
  });

  it("poll a projection for a write 5 s, and for the log's head and a card's payments as long as the caller says", () => {
    expect(projectionCatchUp.withinMs).toBe(5_000);
    expect([1, 2, 3, 4, 5].map(projectionCatchUp.pauseMs)).toEqual([50, 100, 200, 250, 250]);
    expect(cardPaymentsEnding(35_000)).toMatchObject({ withinMs: 35_000 });
    expect(cardPaymentsEnding(35_000).pauseMs(7)).toBe(20);
    expect(projectionReachingHead(2_000)).toMatchObject({ withinMs: 2_000 });
    expect(projectionReachingHead(2_000).pauseMs(7)).toBe(50);
  });
});
