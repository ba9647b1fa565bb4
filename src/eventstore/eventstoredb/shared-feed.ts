import type { Checkpoint, ReadAllOptions, ReadAllResult, SubscribeOptions } from "../port.ts";
import { comparePositions, decodeCheckpoint, type LogPosition } from "./codec.ts";
import type { PositionedBatch } from "./live-reads.ts";

/**
 * How many of its batches' worth of events a subscriber may leave untaken before it is detached
 * from the shared feed and catches up alone: the others never wait for it.
 */
const QUEUE_LIMIT_BATCHES = 16;

/** Opens the one live feed of $all (every type) that subscribers at the head share, from `after`. */
export type OpenSharedFeed = (
  after: Checkpoint | null,
  signal: AbortSignal,
  awaited: NonNullable<SubscribeOptions["awaited"]>,
) => AsyncIterable<PositionedBatch>;

type Taken = { batch: PositionedBatch } | { detached: true } | { ended: true; error?: unknown };

/** One subscriber of the shared feed: the batches delivered to it and not yet taken. */
class Member {
  readonly #queue: PositionedBatch[] = [];
  #queuedEvents = 0;
  #detached = false;
  #ended: { error?: unknown } | undefined;
  #wake: (() => void) | undefined;

  constructor(
    readonly awaited: SubscribeOptions["awaited"],
    private readonly batchSize: number,
  ) {}

  deliver(batch: PositionedBatch): void {
    if (this.#detached) return;
    if (this.#queuedEvents + batch.events.length > QUEUE_LIMIT_BATCHES * this.batchSize) {
      this.#detached = true;
    } else {
      this.#queue.push(batch);
      this.#queuedEvents += batch.events.length;
    }
    this.#notify();
  }

  end(error: unknown): void {
    this.#ended = error === undefined ? {} : { error };
    this.#notify();
  }

  /** The next batch; once those delivered are taken, whether it was detached or the feed ended. Undefined once `signal` aborts. */
  async take(signal: AbortSignal): Promise<Taken | undefined> {
    while (this.#queue.length === 0 && !this.#detached && !this.#ended && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        this.#wake = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
        signal.addEventListener("abort", onAbort, { once: true });
      });
    }
    if (signal.aborted) return undefined;
    const batch = this.#takeQueued();
    if (batch) return { batch };
    return this.#detached ? { detached: true } : { ended: true, ...this.#ended };
  }

  /**
   * What piled up since the last take, as one batch of up to `batchSize` events (at least one
   * batch): a subscriber that applies slower than the feed delivers applies more at once,
   * rather than one small batch a commit while the rest waits.
   */
  #takeQueued(): PositionedBatch | undefined {
    const first = this.#queue.shift();
    if (!first) return undefined;
    const merged: PositionedBatch = { events: [...first.events], positions: [...first.positions], checkpoint: first.checkpoint };
    for (let next = this.#queue[0]; next && merged.events.length + next.events.length <= this.batchSize; next = this.#queue[0]) {
      this.#queue.shift();
      merged.events.push(...next.events);
      merged.positions.push(...next.positions);
      merged.checkpoint = next.checkpoint;
    }
    this.#queuedEvents -= merged.events.length;
    return merged;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/** The shared feed while anyone listens: where it stands, and who receives its batches. */
class Hub {
  readonly members = new Set<Member>();
  readonly #stop = new AbortController();
  /** The checkpoint of the last batch delivered: a member joining now receives every event after it. */
  position: Checkpoint | null;
  ended = false;

  constructor(open: OpenSharedFeed, after: Checkpoint | null) {
    this.position = after;
    void this.#run(open);
  }

  stop(): void {
    this.#stop.abort();
  }

  async #run(open: OpenSharedFeed): Promise<void> {
    let failure: unknown;
    try {
      for await (const batch of open(this.position, this.#stop.signal, (signal) => this.#anyAwaited(signal))) {
        this.position = batch.checkpoint;
        for (const member of this.members) member.deliver(batch);
      }
    } catch (error) {
      failure = error;
    }
    this.ended = true;
    for (const member of this.members) member.end(failure);
  }

  /** Someone waits for one of the members to catch up: the shared feed reads at once. */
  #anyAwaited(signal: AbortSignal): Promise<void> {
    const waits = [...this.members].flatMap((member) => (member.awaited ? [member.awaited(signal)] : []));
    return waits.length === 0 ? new Promise<void>(() => {}) : Promise.race(waits);
  }
}

const isBefore = (a: LogPosition | null, b: LogPosition | null) => b !== null && (a === null || comparePositions(a, b) < 0);

/**
 * The live feeds of one EventStoreDB store in this process. Every projection subscribes; each
 * feed of its own would read and decode the log's new events apart (over gRPC, gzipped by
 * KurrentDB 26.1.0, at tens of microseconds an event), so the projections' cost grew with their
 * number. Here a subscriber catches up alone (reads filtered by its types), then joins the one
 * feed of every event that those at the head share (see live-reads.ts), keeping the types it
 * asked for. A subscriber takes what piled up for it at once, up to its batch size; one that
 * falls `QUEUE_LIMIT_BATCHES` batches' worth behind is detached and catches up alone again; the
 * shared feed stops when no one listens.
 */
export class SharedFeed {
  readonly #open: OpenSharedFeed;
  readonly #readAll: (options: ReadAllOptions) => Promise<ReadAllResult>;
  #hub: Hub | undefined;

  constructor(open: OpenSharedFeed, readAll: (options: ReadAllOptions) => Promise<ReadAllResult>) {
    this.#open = open;
    this.#readAll = readAll;
  }

  /** Every batch after `options.after`, then each new one as it comes, until the signal aborts. */
  async *subscribe(options: SubscribeOptions): AsyncGenerator<ReadAllResult> {
    const { types, signal, batchSize = 500 } = options;
    const typeSet = types ? new Set(types) : null;
    let after = options.after ?? null;
    while (!signal.aborted) {
      // Alone, up to the log's head.
      for (;;) {
        const read = await this.#readAll({ after, types, batchSize });
        if (read.checkpoint !== after) {
          after = read.checkpoint;
          yield read;
        }
        if (read.events.length === 0 || signal.aborted) break;
      }
      if (signal.aborted) return;
      const { member, hub } = this.#join(after, options.awaited, batchSize);
      try {
        // What the shared feed delivered before this member joined, read alone.
        const joinedAt = hub.position;
        while (isBefore(decodeCheckpoint(after), decodeCheckpoint(joinedAt)) && !signal.aborted) {
          const read = await this.#readAll({ after, types, batchSize });
          if (read.events.length === 0) {
            // Nothing of these types follows `after` up to the head, which `joinedAt` had not passed.
            after = joinedAt;
            break;
          }
          after = read.checkpoint;
          yield read;
        }
        for (;;) {
          const taken = await member.take(signal);
          if (taken === undefined) return;
          if ("detached" in taken) break;
          if ("ended" in taken) {
            if (taken.error !== undefined) throw taken.error;
            break;
          }
          const { batch } = taken;
          const from = decodeCheckpoint(after);
          if (!isBefore(from, decodeCheckpoint(batch.checkpoint))) continue;
          const events = batch.events.filter(
            (event, index) => (typeSet === null || typeSet.has(event.type)) && isBefore(from, batch.positions[index] ?? null),
          );
          after = batch.checkpoint;
          yield { events, checkpoint: after };
        }
      } finally {
        this.#leave(hub, member);
      }
    }
  }

  /** Joins the shared feed (opened from `after` if none is open): the member receives every batch after the hub's position now. */
  #join(after: Checkpoint | null, awaited: SubscribeOptions["awaited"], batchSize: number): { member: Member; hub: Hub } {
    if (!this.#hub || this.#hub.ended) this.#hub = new Hub(this.#open, after);
    const member = new Member(awaited, batchSize);
    this.#hub.members.add(member);
    return { member, hub: this.#hub };
  }

  #leave(hub: Hub, member: Member): void {
    hub.members.delete(member);
    if (hub.members.size > 0) return;
    hub.stop();
    if (this.#hub === hub) this.#hub = undefined;
  }
}
