/**
 * Retries and polls, bounded and named by what they wait for. The policies themselves, one per
 * thing waited for, are in `policies.ts`; docs/architecture.md ("Retries") lists them.
 */

/** At most so many tries, or so long from the first, or both: never neither. */
export type Bound = { maxAttempts: number; withinMs?: number } | { maxAttempts?: number; withinMs: number };

export type RetryPolicy = Bound & {
  /** What the retries wait for, in words. */
  waitsFor: string;
  /** The pause after the `failures`-th failed try; 0 tries again at once. */
  pauseMs: (failures: number) => number;
  /** The failures worth waiting out; any other is thrown at once. */
  retries: (error: unknown) => boolean;
};

export interface PollPolicy {
  /** What the poll waits for, in words. */
  waitsFor: string;
  /** How long it waits at most. */
  withinMs: number;
  /** The pause before the `looks`-th look. */
  pauseMs: (looks: number) => number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `attempt` (given its try's number, from 1) until it succeeds. A failure the policy does not
 * retry, or one after which the bound leaves no further try, is thrown as it is: no pause is begun
 * that would end beyond `withinMs`.
 */
export async function retry<T>(policy: RetryPolicy, attempt: (tryNumber: number) => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let tryNumber = 1; ; tryNumber += 1) {
    try {
      return await attempt(tryNumber);
    } catch (error) {
      const pauseMs = pauseBeforeNextTry(policy, error, tryNumber, started);
      if (pauseMs === undefined) throw error;
      if (pauseMs > 0) await pause(pauseMs);
    }
  }
}

/** The pause after the `failures`-th failure in a row, begun at `started`; `undefined` when the policy gives up. */
function pauseBeforeNextTry(policy: RetryPolicy, error: unknown, failures: number, started: number): number | undefined {
  const pauseMs = policy.pauseMs(failures);
  const outOfTries = failures >= (policy.maxAttempts ?? Infinity);
  const outOfTime = performance.now() - started + pauseMs > (policy.withinMs ?? Infinity);
  return !policy.retries(error) || outOfTries || outOfTime ? undefined : pauseMs;
}

/**
 * Pauses, then asks `done`, until it answers true (then true) or `withinMs` has passed (then
 * false); the last pause ends at the bound. `wait` may end a pause early (a wake-up); it is told
 * the policy's pause and the time left.
 */
export async function poll(
  policy: PollPolicy,
  done: () => Promise<boolean>,
  wait: (pauseMs: number, leftMs: number) => Promise<void> = pause,
): Promise<boolean> {
  const deadline = performance.now() + policy.withinMs;
  for (let look = 1; ; look += 1) {
    const leftMs = Math.max(0, deadline - performance.now());
    await wait(Math.min(policy.pauseMs(look), leftMs), leftMs);
    if (await done()) return true;
    if (performance.now() >= deadline) return false;
  }
}

/** Doubling pauses from `firstMs`, at most `maxMs` each. */
export const doubling =
  (firstMs: number, maxMs: number) =>
  (failures: number): number =>
    Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 30));

/**
 * A random pause of up to 2 ms per conflict so far (at most 20 ms): racing writers that collided
 * spread out rather than collide again in lockstep.
 */
export const jittered = (failures: number): number => Math.random() * Math.min(failures, 10) * 2;
