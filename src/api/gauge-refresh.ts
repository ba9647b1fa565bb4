import type { Logger } from "../logger.ts";

/**
 * Reads the database gauges of /metrics at a fixed interval, whatever the scrape rate: scrapes
 * read memory only, so however many scrapers ask, the database answers one pass per interval.
 * One pass at a time; a pass that fails leaves the last values (`database_gauges_age_seconds`
 * shows their age) and is tried again at the next interval.
 */
export class GaugeRefresh {
  readonly #refresh: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #logger: Pick<Logger, "warn">;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  #stopped = false;

  constructor(options: { refresh: () => Promise<void>; intervalMs: number; logger: Pick<Logger, "warn"> }) {
    this.#refresh = options.refresh;
    this.#intervalMs = options.intervalMs;
    this.#logger = options.logger;
  }

  /** Reads the gauges once, then every interval. */
  async start(): Promise<void> {
    await this.#run();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#pass;
  }

  async #run(): Promise<void> {
    this.#pass = this.#refresh().catch((error: unknown) =>
      this.#logger.warn({ err: error }, "metrics gauges not refreshed; they keep their last values"),
    );
    await this.#pass;
    if (!this.#stopped) this.#timer = setTimeout(() => void this.#run(), this.#intervalMs);
  }
}
