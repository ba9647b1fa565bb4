/**
 * `bench:capacity --soak-minutes N` (issue 52): one rate held for N minutes, measured in windows
 * (5 minutes by default), to see whether anything grows that should not: memory, the projections'
 * and the webhooks' lag, the latency the platform adds. Flat means the last window within 10 % of
 * the first (after the bench's warm-up); a drop is no concern. The end-to-end latency is printed but
 * not judged: the simulator's own latency, random by design, dominates it. Then, the load stopped, every
 * transaction the processor answered must leave `pending`: the resolver has two minutes.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { formatNumber } from "../support.ts";
import { type Measured, ms, seconds } from "./report.ts";

/** How much the last window may exceed the first and still be flat. */
const FLAT_WITHIN = 0.1;
const PENDING_GRACE_MS = 120_000;

interface PendingStatus {
  pending: { byAge: Record<string, number> };
}

const flatFigures: [string, (window: Measured) => number, (value: number) => string][] = [
  ["RSS MiB", (window) => window.serviceRssMiB, (value) => formatNumber(value)],
  ["projection lag p99 s", (window) => window.projectionLagP99Seconds, seconds],
  ["webhook lag p99 s", (window) => window.webhookLagP99Seconds, seconds],
  ["added p50 ms", (window) => window.addedP50Ms, ms],
  ["added p99 ms", (window) => window.addedP99Ms, ms],
];

export async function soak(
  options: { minutes: number; windowSeconds: number; rate: number },
  measure: (rate: number, seconds: number) => Promise<Measured>,
  readStatus: () => Promise<PendingStatus | undefined>,
): Promise<void> {
  const count = Math.max(2, Math.ceil((options.minutes * 60) / options.windowSeconds));
  console.log(`soak: ${options.rate}/s for ${count} windows of ${options.windowSeconds} s`);
  const windows: Measured[] = [];
  for (let index = 0; index < count; index += 1) {
    // Only the window's figures are kept: half an hour of samples would be the bench's own memory to watch.
    const window: Measured = { ...(await measure(options.rate, options.windowSeconds)), samples: [] };
    windows.push(window);
    console.log(
      `window ${index + 1}: achieved ${formatNumber(window.achieved, 1)}/s, 5xx ${window.platform5xx}, ` +
        flatFigures.map(([name, of, format]) => `${name} ${format(of(window))}`).join(", ") +
        `, e2e p99 ms ${ms(window.endToEndP99Ms)}` +
        `, webhook queue ${window.webhookQueueAtEnd}, ELU ${formatNumber(window.eventLoopUtilization * 100)} %, CPU ms/op ${formatNumber(window.cpuMsPerOperation.total, 2)}`,
    );
  }
  const first = windows[0]!;
  const last = windows.at(-1)!;
  const verdicts = flatFigures.map(([name, of, format]) => {
    const flat = of(last) <= of(first) * (1 + FLAT_WITHIN);
    return { flat, line: `${name}: first ${format(of(first))}, last ${format(of(last))}: ${flat ? "flat" : "grew"}` };
  });
  const platform5xx = windows.reduce((sum, window) => sum + window.platform5xx, 0);
  console.log(`\n${verdicts.map((verdict) => verdict.line).join("\n")}\n5xx over the soak: ${platform5xx}`);

  const pending = await pendingOnceResolved(readStatus);
  console.log(`pending transactions once the resolver had up to ${PENDING_GRACE_MS / 1_000} s: ${pending ?? "unknown (status not read)"}`);
  const held = verdicts.every((verdict) => verdict.flat) && platform5xx === 0 && pending === 0;
  console.log(`\nsoak (goal: flat within ${FLAT_WITHIN * 100} %, 0 5xx, nothing left pending): ${held ? "held" : "not held"}`);
}

/** Pending transactions once the resolver has had its grace, or sooner once there are none. */
async function pendingOnceResolved(readStatus: () => Promise<PendingStatus | undefined>): Promise<number | undefined> {
  const until = Date.now() + PENDING_GRACE_MS;
  let pending: number | undefined;
  do {
    const status = await readStatus();
    pending = status && Object.values(status.pending.byAge).reduce((sum, count) => sum + count, 0);
    if (pending === 0) return 0;
    await sleep(5_000);
  } while (Date.now() < until);
  return pending;
}
