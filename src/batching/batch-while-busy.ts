import { OverloadedError } from "../overload.ts";

export type Batched<Item, Result> = (item: Item) => Promise<Result>;

export interface BatchOptions {
  /** The most items one flush takes; the rest wait for the next. */
  maxBatch?: number;
  /** The most items that may wait; one more is refused at once with an OverloadedError. */
  maxQueue?: number;
  /** Called when the last flush ends and nothing waits. */
  onIdle?: () => void;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Groups calls that arrive while a flush is in flight. An item that finds nothing in flight is
 * flushed at once, alone; the items that come while it runs wait, and are flushed together when
 * it ends. Idle, this adds no delay; under load, many round trips become one per flush.
 * `flush` answers each item at its index; when it throws, every item of that flush fails.
 * At most `maxQueue` items wait: when the flushes stall (a database that does not answer), the
 * callers are refused at once rather than piling up in memory.
 */
export function batchWhileBusy<Item, Result>(
  flush: (items: Item[]) => Promise<Result[]>,
  { maxBatch = 256, maxQueue = 4 * maxBatch, onIdle }: BatchOptions = {},
): Batched<Item, Result> {
  const queue: Waiting<Item, Result>[] = [];
  let busy = false;

  async function drain(): Promise<void> {
    busy = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const results = await flush(batch.map((waiting) => waiting.item));
        if (results.length !== batch.length) throw new Error(`a flush of ${batch.length} answered ${results.length}`);
        batch.forEach((waiting, index) => waiting.resolve(results[index]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    busy = false;
    onIdle?.();
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      if (queue.length >= maxQueue) {
        reject(new OverloadedError(`${queue.length} items already wait for this batch`));
        return;
      }
      queue.push({ item, resolve, reject });
      if (!busy) void drain();
    });
}
