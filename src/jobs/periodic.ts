import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../logger.ts";

/** A batch's rest, as a multiple of its own duration: a backlog takes a fifth of one connection's time. */
const BATCH_REST_FACTOR = 4;

export interface PeriodicOptions {
  intervalMs: number;
  logger: Pick<Logger, "warn">;
  /** What the log says when a pass fails. */
  failure: string;
  pass: () => Promise<unknown>;
}

/**
 * Runs a job's pass at once and then every `intervalMs` until stopped; a pass that fails is
 * logged and the next one comes. `stopped` tells a long pass to end early.
 */
export class Periodic {
  readonly #options: PeriodicOptions;
  readonly #stopping = new AbortController();
  #running: Promise<void> | undefined;

  constructor(options: PeriodicOptions) {
    this.#options = options;
  }

  get stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  start(): void {
    this.#running ??= this.#loop();
  }

  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
  }

  /**
   * Runs one batch of a pass, then rests `BATCH_REST_FACTOR` times as long as the batch took: a large
   * backlog is worked off steadily at a bounded share of the database, never flat out beside the
   * payments. The rest ends early when the job stops.
   */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await work();
    const restMs = (performance.now() - started) * BATCH_REST_FACTOR;
    await sleep(restMs, undefined, { signal: this.#stopping.signal }).catch(() => {});
    return result;
  }

  async #loop(): Promise<void> {
    const { intervalMs, logger, failure, pass } = this.#options;
    while (!this.stopped) {
      try {
        await pass();
      } catch (error) {
        logger.warn({ err: error }, failure);
      }
      await sleep(intervalMs, undefined, { signal: this.#stopping.signal }).catch(() => {});
    }
  }
}
