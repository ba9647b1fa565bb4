import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import type { RecordedEvent } from "../eventstore/port.ts";
import { projectionCatchUp } from "../retry/policies.ts";
import { poll } from "../retry/retry.ts";

/** How many streams' last applied revisions a service remembers. */
const REMEMBERED_STREAMS = 10_000;

interface Waiter {
  revision: bigint;
  applied: boolean;
  /** Ends the waiter's current pause early. */
  wake(): void;
}

interface Target {
  projection: string;
  streamId: string;
  revision: bigint;
}

/** A write this service answered before its projection had applied it. */
interface OwnWrite {
  target: Target;
  /** Whose reads wait for it: a client id. */
  scope: string;
  check: () => Promise<boolean>;
  /** After this, reads stop waiting for it: the read model lags, and the write is durable anyway. */
  expiresAt: number;
}

const keyOf = (projection: string, streamId: string) => `${projection}\u0000${streamId}`;

/** How long reads wait for an own write to be projected, at most. */
const OWN_WRITE_WAIT_MS = projectionCatchUp.withinMs;
const REMEMBERED_OWN_WRITES = 100_000;

/**
 * What this service's projection runners have told its requests: which writes they applied,
 * whether they lead their projection, and who waits for them. One per service (made in
 * `src/service.ts`, given to its runners, routes and webhook dispatcher): it speaks for the
 * runners of that service's database only. Bounded: at most REMEMBERED_STREAMS applied revisions and
 * REMEMBERED_OWN_WRITES own writes; waiters are requests in flight.
 */
export class ReadYourWrites {
  /** Per projection and stream, the latest own write not known to be applied; oldest first. */
  readonly #ownWrites = new Map<string, OwnWrite>();
  /** The last revision a runner committed, per projection and stream; least recent first. */
  readonly #applied = new Map<string, bigint>();
  /** Per projection, per stream: the requests waiting for it. */
  readonly #waiters = new Map<string, Map<string, Set<Waiter>>>();
  /** Per projection: how many runners hold its lease. */
  readonly #leaders = new Map<string, number>();
  /** Per projection: its runners' subscriptions, told when a request starts waiting for it. */
  readonly #awaitedListeners = new Map<string, Set<() => void>>();

  /** Called by a projection runner after it commits a batch. */
  announceApplied(projection: string, events: readonly RecordedEvent[]): void {
    const ownWrites = this.#ownWrites;
    const applied = this.#applied;
    const streams = this.#waiters.get(projection);
    for (const event of events) {
      const key = keyOf(projection, event.streamId);
      if ((ownWrites.get(key)?.target.revision ?? Infinity) <= event.revision) ownWrites.delete(key);
      // Re-inserted, so the map stays ordered from least to most recently applied.
      applied.delete(key);
      applied.set(key, event.revision);
      for (const waiter of streams?.get(event.streamId) ?? []) {
        if (waiter.revision > event.revision) continue;
        waiter.applied = true;
        waiter.wake();
      }
    }
    for (const key of applied.keys()) {
      if (applied.size <= REMEMBERED_STREAMS) break;
      applied.delete(key);
    }
  }

  /**
   * Called by a projection runner when it takes or loses the projection's lease. Its waiters look
   * at the read model again and choose again whether to poll it.
   */
  announceLeading(projection: string, leading: boolean): void {
    this.#leaders.set(projection, (this.#leaders.get(projection) ?? 0) + (leading ? 1 : -1));
    this.#wakeWaiters(projection);
  }

  /**
   * Called when a runner in another process committed a batch of `projection`: its waiters here
   * look at the read model now rather than at their pause's end.
   */
  appliedElsewhere(projection: string): void {
    this.#wakeWaiters(projection);
  }

  /** Ends the pause of every request waiting for `projection`: each looks at the read model again. */
  #wakeWaiters(projection: string): void {
    for (const streamWaiters of this.#waiters.get(projection)?.values() ?? []) {
      for (const waiter of streamWaiters) waiter.wake();
    }
  }

  /**
   * Waits until `projection` has applied `streamId` up to `revision`, so the caller's next GET sees
   * the write. While a runner of this service leads the projection, it says when; otherwise
   * `check` asks the read model, at growing intervals (`projectionCatchUp`). Gives up after the
   * timeout: the write is durable regardless, and the read model follows.
   */
  async waitForProjection(target: Target, check: () => Promise<boolean>, timeoutMs = projectionCatchUp.withinMs): Promise<boolean> {
    const { projection, streamId, revision } = target;
    if ((this.#applied.get(keyOf(projection, streamId)) ?? -1n) >= revision) return true;
    const waiter: Waiter = { revision, applied: false, wake: () => {} };
    const streams = this.#waiters.get(projection) ?? new Map<string, Set<Waiter>>();
    this.#waiters.set(projection, streams);
    const streamWaiters = streams.get(streamId) ?? new Set<Waiter>();
    streams.set(streamId, streamWaiters.add(waiter));
    for (const listener of this.#awaitedListeners.get(projection) ?? []) listener();
    // While a runner here leads the projection, its word ends the pause: no need to poll.
    const pause = (pollMs: number, leftMs: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, (this.#leaders.get(projection) ?? 0) > 0 ? leftMs : pollMs);
        waiter.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    try {
      return await poll({ ...projectionCatchUp, withinMs: timeoutMs }, async () => waiter.applied || (await check()), pause);
    } finally {
      streamWaiters.delete(waiter);
      if (streamWaiters.size === 0 && streams.get(streamId) === streamWaiters) streams.delete(streamId);
    }
  }

  /**
   * Resolves when a request of this service waits for `projection` (at once while one does), so
   * its runner reads the log now rather than letting appends gather; or when `signal` aborts.
   */
  projectionAwaited(projection: string, signal: AbortSignal): Promise<void> {
    const awaitedListeners = this.#awaitedListeners;
    if ((this.#waiters.get(projection)?.size ?? 0) > 0 || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const listeners = awaitedListeners.get(projection) ?? new Set<() => void>();
      awaitedListeners.set(projection, listeners);
      const done = () => {
        listeners.delete(done);
        if (listeners.size === 0 && awaitedListeners.get(projection) === listeners) awaitedListeners.delete(projection);
        signal.removeEventListener("abort", done);
        resolve();
      };
      listeners.add(done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /**
   * Remembers a write this service is about to answer, instead of waiting for its projection:
   * the next read of `scope` that needs it waits for it then (`awaitOwnWrites`). The answer goes
   * out sooner, and the runner applies many such writes in one batch meanwhile.
   */
  rememberOwnWrite(target: Target, scope: string, check: () => Promise<boolean>): void {
    const ownWrites = this.#ownWrites;
    const key = keyOf(target.projection, target.streamId);
    if ((this.#applied.get(key) ?? -1n) >= target.revision) return;
    const now = Date.now();
    // Re-inserted, so the oldest come first and are the first to be dropped.
    ownWrites.delete(key);
    ownWrites.set(key, { target, scope, check, expiresAt: now + OWN_WRITE_WAIT_MS });
    for (const [oldest, write] of ownWrites) {
      if (write.expiresAt > now && ownWrites.size <= REMEMBERED_OWN_WRITES) break;
      ownWrites.delete(oldest);
    }
  }

  /**
   * Until the projections have applied every write of `scope` (of every scope, when undefined) that
   * this service answered, so a read that follows sees them all. Without a projection: all of them
   * (a stopping service lets its runners catch up first).
   */
  async awaitOwnWrites({ projection, scope }: { projection?: string; scope?: string | undefined }): Promise<void> {
    const ownWrites = this.#ownWrites;
    const now = Date.now();
    const pending = [...ownWrites].filter(
      ([, write]) =>
        (projection === undefined || write.target.projection === projection) &&
        (scope === undefined || write.scope === scope),
    );
    await Promise.all(
      pending.map(async ([key, write]) => {
        if (write.expiresAt <= now) return;
        const seen = await this.waitForProjection(write.target, write.check, write.expiresAt - now);
        if (seen && ownWrites.get(key) === write) ownWrites.delete(key);
      }),
    );
  }
}

/** What a read or write that follows its own writes carries: the database its check reads, and the service's registry. */
export interface OwnWritesContext {
  db: Kysely<Database>;
  readYourWrites: ReadYourWrites;
}
