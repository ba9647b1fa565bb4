import { setTimeout as sleep } from "node:timers/promises";
import type { SubscribeOptions } from "./port.ts";

/** How long a live subscriber gathers by default: short beside a request, long beside one append. */
export const DEFAULT_COALESCE_MS = 30;

/** How often, by default, a live subscriber at the head reads for the appends of other processes. */
export const DEFAULT_POLL_INTERVAL_MS = 200;

/**
 * Lets the events of the moment gather for a live subscriber, so that they are applied as one
 * batch (one transaction) rather than one each: for `ms`, or until someone awaits the subscriber
 * (read-your-writes), who then waits for nothing, or the subscription stops.
 */
export async function gatherMoment({ signal, awaited }: Pick<SubscribeOptions, "signal" | "awaited">, ms: number): Promise<void> {
  const gathered = new AbortController();
  const stop = () => gathered.abort();
  signal.addEventListener("abort", stop, { once: true });
  if (signal.aborted) stop();
  try {
    const pause = sleep(ms, undefined, { signal: gathered.signal });
    await Promise.race([pause, ...(awaited ? [awaited(gathered.signal)] : [])]).catch(() => {});
  } finally {
    gathered.abort();
    signal.removeEventListener("abort", stop);
  }
}
