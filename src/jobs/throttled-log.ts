/** What the throttle writes to: a pino logger, or anything with its two levels. */
type LineLogger = Record<"info" | "warn", (fields: object, message: string) => void>;

export interface ThrottledLogOptions {
  logger: LineLogger;
  /** Lines logged one by one in an interval; the rest are counted. */
  limit: number;
  intervalMs: number;
  /** The message of the line that counts the lines not logged. */
  summary: string;
  now?: () => number;
}

/**
 * Lines of a job that can come by the hundred at once (a backlog of expiries after a restart, a
 * processor outage's pending transactions resolved together): each is logged while fewer than
 * `limit` were this interval; past it, they are counted by message, and one summary line gives
 * the counts once the interval is over (at the next line or `flush`, which a job calls after
 * each pass). Each job instance keeps its own: nothing is shared between services.
 */
export class ThrottledLog {
  readonly #options: Required<ThrottledLogOptions>;
  #intervalStart = -Infinity;
  #logged = 0;
  readonly #notLogged = new Map<string, number>();
  #notLoggedWarning = false;

  constructor(options: ThrottledLogOptions) {
    this.#options = { now: () => performance.now(), ...options };
  }

  info(fields: object, message: string): void {
    this.#line("info", fields, message);
  }

  warn(fields: object, message: string): void {
    this.#line("warn", fields, message);
  }

  /** Logs the count of the lines not logged, once their interval is over. */
  flush(): void {
    const { logger, intervalMs, summary, now } = this.#options;
    if (this.#notLogged.size === 0 || now() - this.#intervalStart < intervalMs) return;
    const fields = { notLogged: Object.fromEntries(this.#notLogged), intervalMs };
    if (this.#notLoggedWarning) logger.warn(fields, summary);
    else logger.info(fields, summary);
    this.#notLogged.clear();
    this.#notLoggedWarning = false;
  }

  #line(level: "info" | "warn", fields: object, message: string): void {
    const { logger, limit, intervalMs, now } = this.#options;
    this.flush();
    const at = now();
    if (at - this.#intervalStart >= intervalMs) {
      this.#intervalStart = at;
      this.#logged = 0;
    }
    if (this.#logged < limit) {
      this.#logged += 1;
      logger[level](fields, message);
      return;
    }
    this.#notLogged.set(message, (this.#notLogged.get(message) ?? 0) + 1);
    this.#notLoggedWarning ||= level === "warn";
  }
}
