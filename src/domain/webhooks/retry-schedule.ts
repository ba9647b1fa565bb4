/** Attempts of one delivery before it is given up: the retries span about 68 hours at a 60 s base. */
export const MAX_ATTEMPTS = 13;

export type RetryDecision =
  | { status: "delivered"; retryInMs: null }
  | { status: "pending"; retryInMs: number }
  | { status: "failed"; retryInMs: null };

/**
 * What follows an attempt: done, another one after an exponential wait with jitter (retry n waits
 * `baseMs * 2^(n-1)` times a factor in [0.75, 1.25), so many endpoints failing together do not
 * retry in lockstep), or given up after `MAX_ATTEMPTS`. `attemptInRound` counts from 1 since the
 * delivery was first queued or last redelivered.
 */
export function retryDecision(options: {
  delivered: boolean;
  attemptInRound: number;
  baseMs: number;
  random?: () => number;
}): RetryDecision {
  const { delivered, attemptInRound, baseMs, random = Math.random } = options;
  if (delivered) return { status: "delivered", retryInMs: null };
  if (attemptInRound >= MAX_ATTEMPTS) return { status: "failed", retryInMs: null };
  const jitter = 0.75 + random() * 0.5;
  return { status: "pending", retryInMs: Math.round(baseMs * 2 ** (attemptInRound - 1) * jitter) };
}
