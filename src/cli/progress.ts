import { Presets, SingleBar } from "cli-progress";
import type { EventStore } from "../eventstore/port.ts";
import { count } from "./output.ts";

export interface Progress {
  /** Events handled so far, and the global position of the last one. */
  update(events: number, position: bigint | null): void;
}

export interface Timed<T> {
  result: T;
  /** "N events in S s, R events/s". */
  summary: string;
}

/**
 * Runs `work` under a progress bar on stderr (only on a terminal) showing events and events/s;
 * its length is the store's head position when the work starts, stretched if the log grows.
 */
export async function withProgress<T>(
  label: string,
  store: EventStore,
  work: (progress: Progress) => Promise<T>,
): Promise<Timed<T>> {
  const head = await store.readHead();
  const bar = new SingleBar(
    { format: `${label} [{bar}] {percentage}% | {events} events | {rate} events/s`, stream: process.stderr, hideCursor: true },
    Presets.shades_classic,
  );
  const started = performance.now();
  let events = 0;
  const rate = () => Math.round(events / Math.max((performance.now() - started) / 1000, 0.001));
  bar.start(Number(head.position ?? 0n), 0, { events, rate: 0 });
  try {
    const result = await work({
      update(handled, position) {
        events = handled;
        const value = Number(position ?? 0n);
        if (value > bar.getTotal()) bar.setTotal(value);
        bar.update(value, { events, rate: rate() });
      },
    });
    // The last event the work needed may lie before the head (events of other types follow): done is 100 %.
    bar.update(bar.getTotal(), { events, rate: rate() });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return { result, summary: `${count(events, "event")} in ${seconds} s, ${rate()} events/s` };
  } finally {
    bar.stop();
  }
}
