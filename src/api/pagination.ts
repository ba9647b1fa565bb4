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
    throw new ApiProblem("validation_error", "The cursor is not one this list gave out.", {
      errors: [{ path: "cursor", message: "is invalid" }],
    });
  }
  return id;
}
