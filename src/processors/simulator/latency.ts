/**
 * How long the simulated processors take to answer, and how often they time out or fail: off
 * unless configured, so tests get instant answers. Latency is log-normal, fixed by its median and
 * 99th percentile (a processor's answer times are skewed right: most quick, a long tail).
 */

export interface SimulatorLatency {
  /** Median answer time; 0: answers at once (only the rates apply). */
  p50Ms: number;
  /** 99th percentile answer time, at least `p50Ms` (equal: every answer takes `p50Ms`). */
  p99Ms: number;
  /** Share (0..1) of operations the processor carries out but answers later than any connector waits. */
  timeoutRate: number;
  /** Share (0..1) of operations answered 503 before the processor does anything. */
  errorRate: number;
}

export type LatencyDraw = { kind: "answer"; delayMs: number } | { kind: "timeout" } | { kind: "error" };

/** The standard normal's 99th percentile. */
const Z_99 = 2.326_347_874_040_840_8;

/** Draws what happens to one operation; `random` returns uniform values in [0, 1). */
export function latencyModel(latency: SimulatorLatency, random: () => number = Math.random): () => LatencyDraw {
  const mu = Math.log(latency.p50Ms);
  const sigma = (Math.log(latency.p99Ms) - mu) / Z_99;
  // Box-Muller: one standard normal from two uniforms (1 - u keeps the logarithm's argument above 0).
  const standardNormal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return () => {
    const fault = random();
    if (fault < latency.errorRate) return { kind: "error" };
    if (fault < latency.errorRate + latency.timeoutRate) return { kind: "timeout" };
    return { kind: "answer", delayMs: latency.p50Ms === 0 ? 0 : Math.exp(mu + sigma * standardNormal()) };
  };
}
