import { type SelectQueryBuilder, sql, type StringReference } from "kysely";
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

export const encodeIdCursor = (id: string) => Buffer.from(id, "utf8").toString("base64url");

export function decodeIdCursor(cursor: string): string {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  if (!z.uuid().safeParse(id).success) {
    throw new ApiProblem("validation_error", "The cursor is not one this list gave out: pass the `nextCursor` of the page before.", {
      errors: [{ path: "cursor", message: "is invalid" }],
    });
  }
  return id;
}

const DAY_MS = 86_400_000;

/** An ISO timestamp with an offset (`Z` or `+02:00`), or a UTC date (`2025-01-31`). */
export const timestamp = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

const isDateOnly = (value: string) => value.length === 10;
export const lowerBoundOf = (value: string) => new Date(value);
/** Inclusive: a date alone covers its whole UTC day. */
export const upperBoundOf = (value: string) =>
  isDateOnly(value) ? new Date(new Date(value).getTime() + DAY_MS - 1) : new Date(value);

/** Opaque cursor of a list ordered on (a timestamp, an id): the last row's pair. */
export const encodeTimeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`, "utf8").toString("base64url");

export function decodeTimeCursor(cursor: string): { at: Date; id: string } {
  const [at = "", id = "", ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !z.iso.datetime().safeParse(at).success || !z.uuid().safeParse(id).success) {
    throw new ApiProblem("validation_error", "The cursor is not one this list gave out: pass the `nextCursor` of the page before.", {
      errors: [{ path: "cursor", message: "is invalid" }],
    });
  }
  return { at: new Date(at), id };
}

/**
 * A keyset page, newest first, on (a timestamp, an id): the rows after the cursor's pair, one more
 * than `limit` so that `pageOf` knows whether another page follows.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  [at, id]: [StringReference<DB, TB>, StringReference<DB, TB>],
  after: { at: Date; id: string } | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .$if(after !== undefined, (page) =>
      page.where(sql<boolean>`(${sql.ref(at)}, ${sql.ref(id)}) < (${after!.at}, ${after!.id})`),
    )
    .orderBy(at, "desc")
    .orderBy(id, "desc")
    .limit(limit + 1);
}
