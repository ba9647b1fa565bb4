/**
 * A service clock that runs at the real pace from noon UTC of the day it is made, and that day.
 * Daily limits reset at midnight UTC: a test that counts payments against one day, or reads
 * today's usage, would see a run straddling midnight as usage given back. From noon, its day
 * lasts the 12 hours no test file runs for.
 */
export function clockFromNoon(): { now: () => Date; day: string } {
  const startedAt = Date.now();
  const day = new Date(startedAt).toISOString().slice(0, 10);
  const sinceNoon = startedAt - Date.parse(`${day}T12:00:00Z`);
  return { now: () => new Date(Date.now() - sinceNoon), day };
}
