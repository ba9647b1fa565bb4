import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceInstance } from "./processes.ts";

/** Which components a fault is disturbing now, and since when each has been left alone. */
export class Disturbances {
  readonly #active = new Map<string, number>();
  readonly #quietSince = new Map<string, number>();

  begin(component: string): void {
    this.#active.set(component, (this.#active.get(component) ?? 0) + 1);
  }

  end(component: string): void {
    const left = (this.#active.get(component) ?? 1) - 1;
    this.#active.set(component, left);
    if (left === 0) this.#quietSince.set(component, Date.now());
  }

  /** Left alone for at least `ms` (or never disturbed). */
  quietFor(component: string, ms: number): boolean {
    if ((this.#active.get(component) ?? 0) > 0) return false;
    return Date.now() - (this.#quietSince.get(component) ?? 0) >= ms;
  }
}

export interface MonitorSummary {
  /** Highest resident memory seen, per instance name. */
  maxRssBytes: Map<string, number>;
  /** Health checks judged: the instance and its database had been left alone long enough. */
  healthChecks: number;
  slowestHealthMs: number;
  /** Judged checks that did not answer 200 within the bound. */
  failedHealthChecks: { instance: string; at: string; detail: string }[];
}

export interface MonitorOptions {
  instances: readonly ServiceInstance[];
  disturbances: Disturbances;
  /** A ready check must answer within this while the database is reachable. */
  healthBoundMs: number;
  /** How long after a disturbance of its database or itself an instance is given to recover. */
  recoveryMs: number;
}

/**
 * Samples every instance's memory and readiness once a second until stopped, and starts again,
 * as a supervisor would, an instance that exited while no fault was acting on it (a crash, which
 * its process records).
 */
export function startMonitor(options: MonitorOptions): { stop(): Promise<MonitorSummary> } {
  const summary: MonitorSummary = { maxRssBytes: new Map(), healthChecks: 0, slowestHealthMs: 0, failedHealthChecks: [] };
  const stopping = new AbortController();
  const running = (async () => {
    while (!stopping.signal.aborted) {
      await Promise.all(options.instances.map((instance, index) => sample(instance, index)));
      await sleep(1_000, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();

  const restarting = new Set<ServiceInstance>();
  async function sample(instance: ServiceInstance, index: number): Promise<void> {
    if (!instance.process.running && !restarting.has(instance) && options.disturbances.quietFor(`instance-${index}`, 0)) {
      restarting.add(instance);
      void instance.start().finally(() => restarting.delete(instance));
      return;
    }
    const rss = await instance.process.rssBytes();
    if (rss !== undefined) summary.maxRssBytes.set(instance.name, Math.max(rss, summary.maxRssBytes.get(instance.name) ?? 0));
    const leftAlone = () =>
      options.disturbances.quietFor("database", options.recoveryMs) &&
      options.disturbances.quietFor(`instance-${index}`, options.recoveryMs);
    if (!instance.process.running || !leftAlone()) return;
    const started = performance.now();
    const status = await fetch(`${instance.url}/health/ready`, { signal: AbortSignal.timeout(options.healthBoundMs) }).then(
      (response) => String(response.status),
      (error: unknown) => (error instanceof Error ? error.name : "error"),
    );
    const elapsed = performance.now() - started;
    // A fault that began while the check ran voids the judgement.
    if (!leftAlone()) return;
    summary.healthChecks += 1;
    summary.slowestHealthMs = Math.max(summary.slowestHealthMs, elapsed);
    if (status !== "200") {
      summary.failedHealthChecks.push({ instance: instance.name, at: new Date().toISOString(), detail: `${status} after ${Math.round(elapsed)} ms` });
    }
  }

  return {
    async stop() {
      stopping.abort();
      await running;
      return summary;
    },
  };
}
