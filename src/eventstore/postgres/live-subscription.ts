import { EventEmitter } from "node:events";
import { DEFAULT_COALESCE_MS, DEFAULT_POLL_INTERVAL_MS, gatherMoment } from "../gather.ts";
import type { Checkpoint, NewEvent, ReadAllOptions, ReadAllResult, SubscribeOptions } from "../port.ts";

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

export const liveSubscriptionDefaults: LiveSubscriptionOptions = { pollIntervalMs: DEFAULT_POLL_INTERVAL_MS, coalesceMs: DEFAULT_COALESCE_MS };

type Wake = "append" | "poll" | "abort";

/** How long other processes' notices of appends gather before the poll they bring forward. */
const NOTICES_GATHER_MS = 2;

interface BatchRead {
  batch: ReadAllResult;
  /** The read found a whole batch: there may be more behind it. */
  full: boolean;
}

interface SharedRead {
  /** Set when the read is sent: which read it is, in the order they were sent. Until then anyone may join it. */
  number: number | undefined;
  result: Promise<ReadAllResult>;
}

/**
 * The live feeds of one PostgreSQL event store in this process: a subscriber reads the log, then
 * waits for an append of this process (told through `appended`) or, for other processes'
 * appends, for the next poll.
 *
 * Every projection subscribes, and all of them wake on the one poll they share. Those at the
 * log's head then share one read of every event after it, each keeping the types it asked for,
 * rather than one read each: at idle that was most of what the embedded database spent (each
 * read costs milliseconds of the service's one thread there). A subscriber woken by an append
 * reads alone, filtered by its types: under load the projections stand at different checkpoints
 * (a read-your-writes wait pulls one ahead), so a read of every type, made for others that cannot
 * join it, would cost more than the filtered one.
 */
export class LiveSubscriptions {
  readonly #readAll: (options: ReadAllOptions) => Promise<ReadAllResult>;
  readonly #options: LiveSubscriptionOptions;
  readonly #wakes = new EventEmitter().setMaxListeners(0);
  #subscribers = 0;
  #pollTimer: NodeJS.Timeout | undefined;
  #pollSoon: NodeJS.Timeout | undefined;
  #readsSent = 0;
  readonly #sharedReads = new Map<string, SharedRead>();

  constructor(readAll: (options: ReadAllOptions) => Promise<ReadAllResult>, options: LiveSubscriptionOptions) {
    this.#readAll = readAll;
    this.#options = options;
  }

  /** Wakes the subscribers waiting for these events. */
  appended(events: readonly NewEvent[]): void {
    this.#wakes.emit("append", events);
  }

  /**
   * Another process appended: the poll comes now, once the notices of the moment have gathered
   * (a busy log sends one an append statement), rather than at its interval.
   */
  appendedElsewhere(): void {
    if (this.#subscribers === 0 || this.#pollSoon) return;
    this.#pollSoon = setTimeout(() => {
      this.#pollSoon = undefined;
      this.#wakes.emit("poll");
    }, NOTICES_GATHER_MS);
  }

  /** Every batch after `options.after`, then each new one as it comes, until the signal aborts. */
  async *subscribe(options: SubscribeOptions & { batchSize: number }): AsyncIterable<ReadAllResult> {
    const { batchSize, types, signal } = options;
    let after = options.after ?? null;
    // Appends that gathered while the subscription was stopped are read all the same: a clean
    // stop leaves unread nothing this process appended before it.
    let gathered = false;
    // Until a read finds less than a batch, the subscriber catches up alone, the log filtered by type.
    let atHead = false;
    let polled = false;
    this.#joined();
    try {
      while (gathered || !signal.aborted) {
        // Listen before reading, so an append that lands during the read still wakes us.
        const listeningSince = this.#readsSent;
        const woken = this.#nextWake(signal, types);
        const read: BatchRead =
          atHead && polled ? await this.#readShared(after, batchSize, types, listeningSince) : await this.#readAlone(after, batchSize, types);
        atHead = !read.full;
        if (read.batch.checkpoint !== after) {
          after = read.batch.checkpoint;
          yield read.batch;
        }
        if (!atHead) continue;
        const wake = await woken;
        gathered = wake === "append";
        polled = wake === "poll";
        if (gathered) await gatherMoment(options, this.#options.coalesceMs);
      }
    } finally {
      this.#left();
    }
  }

  close(): void {
    this.#wakes.removeAllListeners();
    clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
    clearTimeout(this.#pollSoon);
    this.#pollSoon = undefined;
  }

  async #readAlone(after: Checkpoint | null, batchSize: number, types: readonly string[] | undefined): Promise<BatchRead> {
    const batch = await this.#readAll({ after, batchSize, types });
    return { batch, full: batch.events.length === batchSize };
  }

  /**
   * Every event after `after` (one batch), read once for the subscribers at that checkpoint; each
   * keeps its own types. A subscriber joins a read not yet sent, or one sent after it began to
   * listen (one sent before might miss an append committed before the subscriber listened). The
   * read is sent on the next turn of the event loop, so that every subscriber woken by the same
   * poll joins it. The checkpoint is the last event read, as a filtered read's is when it finds
   * less than a batch.
   */
  async #readShared(
    after: Checkpoint | null,
    batchSize: number,
    types: readonly string[] | undefined,
    listeningSince: number,
  ): Promise<BatchRead> {
    const key = `${after ?? ""}:${batchSize}`;
    let read = this.#sharedReads.get(key);
    if (!read || (read.number !== undefined && read.number <= listeningSince)) {
      const shared: SharedRead = {
        number: undefined,
        result: new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          shared.number = ++this.#readsSent;
          return this.#readAll({ after, batchSize });
        }),
      };
      const forget = () => {
        if (this.#sharedReads.get(key) === shared) this.#sharedReads.delete(key);
      };
      shared.result.then(forget, forget);
      this.#sharedReads.set(key, shared);
      read = shared;
    }
    const batch = await read.result;
    const full = batch.events.length === batchSize;
    return { batch: types ? { ...batch, events: batch.events.filter((event) => types.includes(event.type)) } : batch, full };
  }

  /**
   * Until this process appends an event of one of `types` (any event when there is no filter),
   * or the shared poll comes. Skipped events still move the subscriber's checkpoint, but they
   * need not wake it: the poll catches up with them.
   */
  #nextWake(signal: AbortSignal, types: readonly string[] | undefined): Promise<Wake> {
    return new Promise((resolve) => {
      const done = (reason: Wake) => {
        this.#wakes.off("append", onAppend);
        this.#wakes.off("poll", onPoll);
        signal.removeEventListener("abort", onAbort);
        resolve(reason);
      };
      const onAppend = (events: readonly NewEvent[]) => {
        if (!types || events.some((event) => types.includes(event.type))) done("append");
      };
      const onPoll = () => done("poll");
      const onAbort = () => done("abort");
      this.#wakes.on("append", onAppend);
      this.#wakes.on("poll", onPoll);
      signal.addEventListener("abort", onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
  }

  /** One poll for every subscriber, so that those at the head wake together and share a read. */
  #joined(): void {
    this.#subscribers += 1;
    this.#pollTimer ??= setInterval(() => this.#wakes.emit("poll"), this.#options.pollIntervalMs);
  }

  #left(): void {
    this.#subscribers -= 1;
    if (this.#subscribers > 0) return;
    clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
  }
}
