import { describe, expect, it } from "vitest";
import { batchWhileBusy } from "../../src/batching/batch-while-busy.ts";
import { OverloadedError } from "../../src/overload.ts";

/** A flush whose calls are recorded and which ends only when the test releases it. */
function heldFlush() {
  const flushes: number[][] = [];
  const releases: (() => void)[] = [];
  const flush = async (items: number[]) => {
    flushes.push(items);
    await new Promise<void>((resolve) => releases.push(resolve));
    if (items.includes(-1)) throw new Error("bad item");
    return items.map((item) => item * 10);
  };
  const releaseNext = async () => {
    await until(() => releases.length > 0);
    releases.shift()!();
  };
  return { flush, flushes, releaseNext };
}

async function until(condition: () => boolean) {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 100) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe("batchWhileBusy", () => {
  it("flushes an item at once when idle, and groups the items that arrive while it is in flight", async () => {
    const { flush, flushes, releaseNext } = heldFlush();
    const batched = batchWhileBusy(flush);
    const first = batched(1);
    expect(flushes).toEqual([[1]]);
    const rest = [batched(2), batched(3), batched(4)];
    await releaseNext();
    await releaseNext();
    expect(await first).toBe(10);
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
  });

  it("fails only the items of a flush that throws", async () => {
    const { flush, releaseNext } = heldFlush();
    const batched = batchWhileBusy(flush);
    const first = batched(1);
    const failing = [batched(-1), batched(2)];
    await releaseNext();
    await releaseNext();
    expect(await first).toBe(10);
    for (const result of await Promise.allSettled(failing)) expect(result).toMatchObject({ status: "rejected" });
    const later = batched(3);
    await releaseNext();
    expect(await later).toBe(30);
  });

  it("takes at most maxBatch items per flush and says when it is idle", async () => {
    const { flush, flushes, releaseNext } = heldFlush();
    let idle = 0;
    const batched = batchWhileBusy(flush, { maxBatch: 2, onIdle: () => (idle += 1) });
    const all = [1, 2, 3, 4, 5].map((item) => batched(item));
    for (let flushed = 0; flushed < 3; flushed += 1) {
      expect(idle).toBe(0);
      await releaseNext();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(flushes).toEqual([[1], [2, 3], [4, 5]]);
    expect(idle).toBe(1);
  });

  it("refuses a flush that answers a different number of items", async () => {
    const batched = batchWhileBusy(async (items: number[]) => items.slice(1));
    await expect(batched(1)).rejects.toThrow("a flush of 1 answered 0");
  });

  it("refuses at once an item that finds maxQueue items waiting, and takes items again once they have gone", async () => {
    const { flush, flushes, releaseNext } = heldFlush();
    const batched = batchWhileBusy(flush, { maxBatch: 2, maxQueue: 3 });
    const inFlight = batched(1);
    const waiting = [batched(2), batched(3), batched(4)];
    await expect(batched(5)).rejects.toBeInstanceOf(OverloadedError);
    await releaseNext();
    expect(await inFlight).toBe(10);
    // Two of the three waiting are in flight now: room for two.
    const more = [batched(6), batched(7)];
    await expect(batched(8)).rejects.toBeInstanceOf(OverloadedError);
    for (let flushed = 0; flushed < 3; flushed += 1) await releaseNext();
    expect(await Promise.all([...waiting, ...more])).toEqual([20, 30, 40, 60, 70]);
    expect(flushes).toEqual([[1], [2, 3], [4, 6], [7]]);
  });
});
