import { setTimeout as sleep } from "node:timers/promises";
import {
  START,
  eventTypeFilter,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
} from "@eventstore/db-client";
import type { ReadAllResult, RecordedEvent, SubscribeOptions } from "../port.ts";
import {
  backoffDelay,
  comparePositions,
  decodeCheckpoint,
  encodeCheckpoint,
  eventTypesRegex,
  isPermanentSubscriptionError,
  positionOf,
  toVisibleEvent,
  type LogPosition,
} from "./codec.ts";

/** Events buffered from one subscription; the stream is paused while the consumer lags this far behind. */
const HIGH_WATER = 1_000;

type Take = { events: AllStreamResolvedEvent[] } | { ended: true; error?: unknown };

/**
 * Buffers a subscription's events in arrival order so the consumer can take what has piled up as
 * one batch, and turns error, end and abort into a single "ended" outcome.
 */
class SubscriptionBuffer {
  private readonly events: AllStreamResolvedEvent[] = [];
  private ended: { error?: unknown } | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly subscription: AllStreamSubscription,
    private readonly signal: AbortSignal,
  ) {
    subscription.on("data", (event) => {
      if (this.ended) return;
      this.events.push(event);
      if (this.events.length >= HIGH_WATER) subscription.pause();
      this.notify();
    });
    subscription.on("error", (error) => this.end({ error }));
    subscription.on("end", () => this.end({}));
    subscription.on("close", () => this.end({}));
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  async take(max: number): Promise<Take> {
    while (this.events.length === 0 && !this.ended && !this.signal.aborted) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    // Events that arrived before an error are still good: hand them out before reporting the end.
    if (this.events.length > 0 && !this.signal.aborted) {
      const events = this.events.splice(0, max);
      if (this.subscription.isPaused() && this.events.length < HIGH_WATER / 2) this.subscription.resume();
      return { events };
    }
    return { ended: true, ...this.ended };
  }

  async dispose(): Promise<void> {
    this.end({});
    this.signal.removeEventListener("abort", this.onAbort);
    try {
      await this.subscription.unsubscribe();
    } catch {
      // The call never opened (e.g. the server was unreachable): there is nothing to cancel.
    }
    this.subscription.destroy();
  }

  private readonly onAbort = (): void => this.notify();

  private end(outcome: { error?: unknown }): void {
    this.ended ??= outcome;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * A catch-up-then-live feed of $all. Filtered $all subscriptions can drop; on error or end it
 * resubscribes with exponential backoff from the last event it consumed, skipping anything at or
 * before that position, so nothing is yielded twice or skipped.
 */
export async function* subscribeToAll(
  client: EventStoreDBClient,
  { after, types, batchSize = 500, signal }: SubscribeOptions,
): AsyncGenerator<ReadAllResult> {
  let last: LogPosition | null = decodeCheckpoint(after);
  const typeSet = types ? new Set(types) : null;
  const filter = types ? eventTypeFilter({ regex: eventTypesRegex(types) }) : excludeSystemEvents();
  let attempt = 0;

  while (!signal.aborted) {
    const buffer = new SubscriptionBuffer(client.subscribeToAll({ fromPosition: last ?? START, filter }), signal);
    let failure: unknown;
    try {
      for (;;) {
        const taken = await buffer.take(Math.max(1, batchSize));
        if ("ended" in taken) {
          failure = taken.error;
          break;
        }
        const events: RecordedEvent[] = [];
        for (const resolved of taken.events) {
          const position = positionOf(resolved);
          if (position === null || (last !== null && comparePositions(position, last) <= 0)) continue;
          last = position;
          const event = toVisibleEvent(resolved, typeSet);
          if (event) events.push(event);
        }
        if (events.length > 0 && last !== null) {
          attempt = 0;
          yield { events, checkpoint: encodeCheckpoint(last) };
        }
      }
    } finally {
      await buffer.dispose();
    }
    if (signal.aborted) return;
    if (failure !== undefined && isPermanentSubscriptionError(failure)) throw failure;
    await sleep(backoffDelay(attempt++), undefined, { signal }).catch(() => undefined);
  }
}
