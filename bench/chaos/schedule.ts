/** A host configuration's daily settlement time, in UTC, and the moment it comes round in this run. */
export interface ScheduledClose {
  /** `HH:MM`, as the host configuration's `settlementTime` with `timeZone` UTC. */
  settlementTime: string;
  at: Date;
}

const MINUTE_MS = 60_000;

/**
 * The settlement times that come round between `from` and `to`, one a minute; the first one after
 * `from` when the window holds none (a run shorter than a minute), so some batch still closes on
 * schedule before the run's evidence is read.
 */
export function settlementTimesBetween(from: Date, to: Date): ScheduledClose[] {
  const first = Math.ceil(from.getTime() / MINUTE_MS) * MINUTE_MS;
  const times: ScheduledClose[] = [];
  for (let at = first; at <= to.getTime() || times.length === 0; at += MINUTE_MS) {
    times.push({ settlementTime: new Date(at).toISOString().slice(11, 16), at: new Date(at) });
  }
  return times;
}
