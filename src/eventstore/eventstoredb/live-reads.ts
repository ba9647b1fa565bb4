import { EventEmitter, once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { type AllStreamResolvedEvent, type ReadPosition, START } from "@kurrent/kurrentdb-client";
import { gatherMoment } from "../gather.ts";
import type { ReadAllResult, RecordedEvent, SubscribeOptions } from "../port.ts";
import { comparePositions, decodeCheckpoint, encodeCheckpoint, type LogPosition, positionOf, toVisibleEvent } from "./codec.ts";

/** A batch of the live feed, with each event's place in the log (its `position` is the commit's alone, shared by the events of one append). */
export interface PositionedBatch extends ReadAllResult {
  positions: LogPosition[];
}

/** One page of $all from a position (the event at it included), as the client reads it. */
export type ReadAllPage = (fromPosition: ReadPosition, maxCount: number) => Promise<AllStreamResolvedEvent[]>;

export interface LiveReadTiming {
  /** How often the feed reads, at the head, for events other processes appended. */
  pollIntervalMs: number;
  /** How long the feed lets the events of a moment gather after a read that found some (see gatherMoment). */
  coalesceMs: number;
}

/** Tells the live feed that this process appended: it reads at once rather than at the next poll. */
export class AppendSignal {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  appended(): void {
    this.#emitter.emit("appended");
  }

  /** Resolves at the next append; rejects when `signal` aborts. */
  next(signal: AbortSignal): Promise<unknown> {
    return once(this.#emitter, "appended", { signal });
  }
}

/**
 * $all after `after`, every visible event, read page by page, then at the head again and again:
 * after a read that found events, once those of the moment have gathered (at once when someone
 * awaits the feed); after one that found none, at this process's next append or the next poll.
 *
 * Reads rather than a subscription: KurrentDB 26.1.0 gzips every gRPC answer, and grpc-js
 * decompresses a subscription's messages one at a time, each over several turns of the event
 * loop, so a subscription of a busy service fell further behind the longer the load lasted (18 s
 * after 30 s of full-speed sales, its events arriving one at a time). The client's reads go
 * through its native bridge, off the event loop.
 */
export async function* readLive(
  readAllPage: ReadAllPage,
  { after, signal, awaited, batchSize = 500 }: Pick<SubscribeOptions, "after" | "signal" | "awaited" | "batchSize">,
  timing: LiveReadTiming,
  appends: AppendSignal,
): AsyncGenerator<PositionedBatch> {
  let last: LogPosition | null = decodeCheckpoint(after ?? null);
  while (!signal.aborted) {
    // Listen before reading, so an append that lands during the read still wakes the feed.
    const woken = new AbortController();
    const appended = appends.next(woken.signal).catch(() => undefined);
    try {
      // One record more than a batch: a read from a position includes the record at it.
      const page = await readAllPage(last ?? START, batchSize + 1);
      const events: RecordedEvent[] = [];
      const positions: LogPosition[] = [];
      const before = last;
      for (const resolved of page) {
        const position = positionOf(resolved);
        if (position === null || (last !== null && comparePositions(position, last) <= 0)) continue;
        last = position;
        const event = toVisibleEvent(resolved, null);
        if (event) {
          events.push(event);
          positions.push(position);
        }
      }
      if (last !== null && last !== before) yield { events, positions, checkpoint: encodeCheckpoint(last) };
      if (page.length > batchSize) continue;
      if (events.length > 0) {
        await gatherMoment({ signal, awaited }, timing.coalesceMs);
        continue;
      }
      // Not when someone awaits the feed: what a reader waits for was appended here (which wakes
      // the feed) or elsewhere (the poll finds it); while one waits, that would read in a loop.
      const stopped = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true, signal: woken.signal }));
      await Promise.race([appended, sleep(timing.pollIntervalMs, undefined, { signal: woken.signal }), stopped]).catch(() => undefined);
    } finally {
      woken.abort();
    }
  }
}
