import { Temporal } from "temporal-polyfill";

/** One day's scheduled batch close of a host configuration. */
export interface ScheduledClose {
  /** The day in the host configuration's time zone (`YYYY-MM-DD`): one batch per day. */
  localDate: string;
  at: Date;
}

/**
 * The moment `settlementTime` (`HH:MM`) falls on a day in `timeZone`. A time a DST change skips
 * is taken as the same wall time after the change (02:30 on a spring-forward day closes at
 * 03:30); a time that happens twice is its first occurrence. Either way it is one moment a day.
 */
export function closeOn(localDate: string, settlementTime: string, timeZone: string): Date {
  const zoned = Temporal.PlainDate.from(localDate).toZonedDateTime({
    timeZone,
    plainTime: Temporal.PlainTime.from(settlementTime),
  });
  return new Date(zoned.epochMilliseconds);
}

/** The latest scheduled close at or before `now`: today's in the zone if its time has come, else yesterday's. */
export function latestScheduledClose(now: Date, settlementTime: string, timeZone: string): ScheduledClose {
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
  const todays = closeOn(today.toString(), settlementTime, timeZone);
  if (todays.getTime() <= now.getTime()) return { localDate: today.toString(), at: todays };
  const yesterday = today.subtract({ days: 1 }).toString();
  return { localDate: yesterday, at: closeOn(yesterday, settlementTime, timeZone) };
}
