import {
  START,
  eventTypeFilter,
  excludeSystemEvents,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type KurrentDBClient,
  type Position,
} from "@kurrent/kurrentdb-client";
import { gatherMoment } from "../gather.ts";
import type { ReadAllResult, RecordedEvent, SubscribeOptions } from "../port.ts";
import { eventStoreSubscriptionDropped } from "../../retry/policies.ts";
import { retryFeed } from "../../retry/retry.ts";
import {
  comparePositions,
  decodeCheckpoint,
  encodeCheckpoint,
  eventTypesRegex,
  isPermanentSubscriptionError,
  positionOf,
  SubscriptionDroppedError,
  toLogPosition,
  toVisibleEvent,
  type LogPosition,
} from "./codec.ts";

/** A subscription's batch, with each event's place in the log (its `position` is the commit's alone, shared by the events of one append). */
export interface PositionedBatch extends ReadAllResult {
  positions: LogPosition[];
}

/** Events buffered from one subscription; the stream is paused while the consumer lags this far behind. */
const HIGH_WATER = 1_000;

/** What a subscription hands over, in log order: an event, or the server's word that it scanned up to a position. */
type Item = { event: AllStreamResolvedEvent } | { scanned: LogPosition };

type Take = { items: Item[] } | { ended: true; error?: unknown };

type CheckpointReached = (subscription: AllStreamSubscription, position: Position) => Promise<void>;

/** Opens the subscription, having the client call `checkpointReached` at each server checkpoint. */
type OpenSubscription = (checkpointReached: CheckpointReached) => AllStreamSubscription;

/**
 * Buffers a subscription's events and checkpoints in arrival order so the consumer can take what
 * has piled up as one batch, and turns error, end and abort into a single "ended" outcome.
 */
class SubscriptionBuffer {
  private readonly items: Item[] = [];
  private readonly subscription: AllStreamSubscription;
  private ended: { error?: unknown } | null = null;
  private wake: (() => void) | null = null;
  private drained: (() => void) | null = null;

  constructor(
    open: OpenSubscription,
    private readonly signal: AbortSignal,
  ) {
    const subscription = open((_subscription, position) => this.checkpointReached(position));
    this.subscription = subscription;
    subscription.on("data", (event) => {
      if (this.ended) return;
      this.push({ event });
      if (this.items.length >= HIGH_WATER) subscription.pause();
      if (subscription.readableLength === 0) this.notifyDrained();
    });
    subscription.on("error", (error) => this.end({ error }));
    subscription.on("end", () => this.end({}));
    subscription.on("close", () => this.end({}));
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  async take(max: number): Promise<Take> {
    while (this.items.length === 0 && !this.ended && !this.signal.aborted) {
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    // Events that arrived before an error are still good: hand them out before reporting the end.
    if (this.items.length > 0 && !this.signal.aborted) {
      const items = this.items.splice(0, max);
      if (this.subscription.isPaused() && this.items.length < HIGH_WATER / 2) this.subscription.resume();
      return { items };
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

  /**
   * The client calls this from its stream's transform, possibly while events that came before the
   * checkpoint still wait in the stream's own buffer: the checkpoint is queued only behind them,
   * or it would pass them over. The client waits for it, so no later event comes in between.
   */
  private async checkpointReached(position: Position): Promise<void> {
    if (this.subscription.readableLength > 0 && !this.ended) {
      await new Promise<void>((resolve) => (this.drained = resolve));
    }
    if (!this.ended) this.push({ scanned: toLogPosition(position) });
  }

  private push(item: Item): void {
    this.items.push(item);
    this.notify();
  }

  private readonly onAbort = (): void => this.notify();

  private end(outcome: { error?: unknown }): void {
    this.ended ??= outcome;
    this.notifyDrained();
    this.notify();
  }

  private notifyDrained(): void {
    const drained = this.drained;
    this.drained = null;
    drained?.();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * A catch-up-then-live feed of $all, filtered by the server. Its checkpoint moves past the
 * records the filter drops at the checkpoints the server sends every `maxSearchWindow` (32) records
 * it scanned, so it trails the end of the log by fewer than 32 records once caught up (the server
 * sends none while the log is quiet). Live, it lets the events of a moment gather into one batch
 * (see gatherMoment), as the PostgreSQL subscription does. Filtered $all subscriptions can drop;
 * on error or end it subscribes again (`eventStoreSubscriptionDropped`) from the last position it
 * passed, skipping anything at or before it, so nothing is yielded twice or skipped.
 */
export function subscribeToAll(
  client: KurrentDBClient,
  { after, types, batchSize = 500, signal, awaited }: SubscribeOptions,
  coalesceMs: number,
): AsyncGenerator<PositionedBatch> {
  const typeSet = types ? new Set(types) : null;
  const filter = types ? eventTypeFilter({ regex: eventTypesRegex(types) }) : excludeSystemEvents();
  const from = { last: decodeCheckpoint(after) };
  return retryFeed(eventStoreSubscriptionDropped, signal, () =>
    subscribeOnce(
      (checkpointReached) => client.subscribeToAll({ fromPosition: from.last ?? START, filter: { ...filter, checkpointReached } }),
      { from, typeSet, batchSize, signal, awaited, coalesceMs },
    ),
  );
}

/**
 * One subscription's batches, until it ends: quietly when `signal` aborts, else by throwing what
 * ended it (a `SubscriptionDroppedError` unless no new subscription can mend it). `from.last`, the
 * last position passed, moves with each batch, so the next subscription starts there.
 */
async function* subscribeOnce(
  open: OpenSubscription,
  { from, typeSet, batchSize, signal, awaited, coalesceMs }: {
    from: { last: LogPosition | null };
    typeSet: ReadonlySet<string> | null;
    batchSize: number;
    signal: AbortSignal;
    awaited: SubscribeOptions["awaited"];
    coalesceMs: number;
  },
): AsyncGenerator<PositionedBatch> {
  const buffer = new SubscriptionBuffer(open, signal);
  try {
    for (;;) {
      const taken = await buffer.take(Math.max(1, batchSize));
      if ("ended" in taken) {
        if (signal.aborted) return;
        throw taken.error !== undefined && isPermanentSubscriptionError(taken.error) ? taken.error : new SubscriptionDroppedError(taken.error);
      }
      const before = from.last;
      const events: RecordedEvent[] = [];
      const positions: LogPosition[] = [];
      for (const item of taken.items) {
        const position = "scanned" in item ? item.scanned : positionOf(item.event);
        if (position === null || (from.last !== null && comparePositions(position, from.last) <= 0)) continue;
        from.last = position;
        const event = "event" in item ? toVisibleEvent(item.event, typeSet) : null;
        if (event) {
          events.push(event);
          positions.push(position);
        }
      }
      if (from.last !== null && from.last !== before) yield { events, positions, checkpoint: encodeCheckpoint(from.last) };
      // Live, events arrive one by one: let those of the moment gather into the next batch.
      if (taken.items.length < batchSize) await gatherMoment({ signal, awaited }, coalesceMs);
    }
  } finally {
    await buffer.dispose();
  }
}
