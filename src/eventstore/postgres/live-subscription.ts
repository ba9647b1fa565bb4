import { EventEmitter } from "node:events";
import { DEFAULT_COALESCE_MS, gatherMoment } from "../gather.ts";
import type { NewEvent, ReadAllOptions, ReadAllResult, SubscribeOptions } from "../port.ts";

export interface LiveSubscriptionOptions {
  /** How often a live subscription polls for events written by other processes. */
  pollIntervalMs: number;
  /**
   * How long a live subscription woken by an append in this process lets the appends of that
   * moment gather before it reads them as one batch (one read, one transaction, and a sale's
   * intent and outcome often in one): until someone awaits the subscriber, who waits for nothing.
   */
  coalesceMs: number;
}

export const liveSubscriptionDefaults: LiveSubscriptionOptions = { pollIntervalMs: 200, coalesceMs: DEFAULT_COALESCE_MS };

/**
 * The live feeds of one PostgreSQL event store in this process: a subscriber reads the log, then
 * waits for an append of this process (told through `appended`) or, for other processes'
 * appends, for its next poll.
 */
export class LiveSubscriptions {
  readonly #readAll: (options: ReadAllOptions) => Promise<ReadAllResult>;
  readonly #options: LiveSubscriptionOptions;
  readonly #appended = new EventEmitter().setMaxListeners(0);

  constructor(readAll: (options: ReadAllOptions) => Promise<ReadAllResult>, options: LiveSubscriptionOptions) {
    this.#readAll = readAll;
    this.#options = options;
  }

  /** Wakes the subscribers waiting for these events. */
  appended(events: readonly NewEvent[]): void {
    this.#appended.emit("append", events);
  }

  /** Every batch after `options.after`, then each new one as it comes, until the signal aborts. */
  async *subscribe(options: SubscribeOptions & { batchSize: number }): AsyncIterable<ReadAllResult> {
    const { batchSize } = options;
    let after = options.after ?? null;
    // Appends that gathered while the subscription was stopped are read all the same: a clean
    // stop leaves unread nothing this process appended before it.
    let gathered = false;
    while (gathered || !options.signal.aborted) {
      // Listen before reading, so an append that lands during the read still wakes us.
      const woken = this.#nextAppendOrPoll(options.signal, options.types);
      const batch = await this.#readAll({ after, batchSize, types: options.types });
      if (batch.checkpoint !== after) {
        after = batch.checkpoint;
        yield batch;
      }
      gathered = batch.events.length < batchSize && (await woken) === "append";
      if (gathered) await gatherMoment(options, this.#options.coalesceMs);
    }
  }

  close(): void {
    this.#appended.removeAllListeners();
  }

  /**
   * Until this process appends an event of one of `types` (any event when there is no filter),
   * or the poll interval passes. Skipped events still move the subscriber's checkpoint, but they
   * need not wake it: the poll catches up with them.
   */
  #nextAppendOrPoll(signal: AbortSignal, types: readonly string[] | undefined): Promise<"append" | "poll" | "abort"> {
    // A plain timer, not AbortSignal.timeout: a timeout signal held only through AbortSignal.any
    // can be garbage-collected before it fires, and then an idle subscriber never polls again.
    return new Promise((resolve) => {
      const done = (reason: "append" | "poll" | "abort") => {
        clearTimeout(timer);
        this.#appended.off("append", onAppend);
        signal.removeEventListener("abort", onAbort);
        resolve(reason);
      };
      const onAppend = (events: readonly NewEvent[]) => {
        if (!types || events.some((event) => types.includes(event.type))) done("append");
      };
      const onAbort = () => done("abort");
      const timer = setTimeout(() => done("poll"), this.#options.pollIntervalMs);
      this.#appended.on("append", onAppend);
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
  }
}
