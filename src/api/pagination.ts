import { z } from "zod";
import { ApiProblem } from "./problems.ts";

/** `limit` and `cursor` of every list (API.md: 1..100, default 20). */
export const listQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** Given `limit + 1` rows, the page and the cursor to the next one. */
export function pageOf<Row>(rows: Row[], limit: number, cursorOf: (row: Row) => string) {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return { data, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}

/** A cursor that the list did not give out (`path`: the query parameter that carried it). */
export const invalidCursor = (path = "cursor") =>
  new ApiProblem("validation_error", "The cursor is not one this list gave out: pass the `nextCursor` of the page before.", {
    errors: [{ path, message: "must be the nextCursor of the page before" }],
  });

export const encodeIdCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");

export function decodeIdCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!z.uuid().safeParse(id).success) throw invalidCursor();
  return id;
}

const DAY_MS = 86_400_000;

const isDateOnly = (value: string) => value.length === 10;
export const lowerBoundOf = (value: string) => new Date(value);
/** Inclusive: a date alone covers its whole UTC day. */
export const upperBoundOf = (value: string) =>
  isDateOnly(value) ? new Date(new Date(value).getTime() + DAY_MS - 1) : new Date(value);

/**
 * Within the years 1 to 9999 in UTC: PostgreSQL has no year 0, and takes no year of five digits in
 * the form `toISOString` writes it (`+010000-…`), so a bound outside them would fail its query.
 */
const storable = (at: Date) => at.getUTCFullYear() >= 1 && at.getUTCFullYear() <= 9999;

const timestampRule = "must be an ISO 8601 timestamp with an offset (2025-01-31T12:00:00Z) or a UTC date (2025-01-31), in the years 0001 to 9999 UTC";

/** An ISO timestamp with an offset (`Z` or `+02:00`), or a UTC date (`2025-01-31`). */
export const timestamp = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: timestampRule })
  .refine((value) => storable(lowerBoundOf(value)) && storable(upperBoundOf(value)), { error: timestampRule });

/** Opaque cursor of a list ordered on (a timestamp, an id): the last row's pair. */
export const encodeTimeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`, "utf8").toString("base64url");

export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  const [at = "", id = "", ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !z.iso.datetime().safeParse(at).success || !storable(new Date(at)) || !z.uuid().safeParse(id).success) {
    throw invalidCursor();
  }
  return { at: new Date(at), id };
}
