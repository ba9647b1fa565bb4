import { z } from "zod";
import { InvalidAppendError } from "./errors.ts";
import type { ExpectedRevision, JsonObject, NewEvent } from "./port.ts";

/** Deeper than any event nests; also where a cycle stops. */
const MAX_DEPTH = 64;
/** NUL and unpaired surrogates: JSON.stringify writes them, but jsonb refuses them. */
const isStorable = (text: string) => !text.includes("\u0000") && !/\p{Cs}/u.test(text);

/**
 * What JSON holds unchanged through a round trip and jsonb stores: null, booleans, finite
 * numbers, storable strings, dense arrays and plain objects with no `toJSON`. A predicate rather
 * than `z.json()`, which costs several times more on every append of the payment path.
 */
function isJson(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  switch (typeof value) {
    case "string":
      return isStorable(value);
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value);
    case "object": {
      if (value === null) return true;
      // A `toJSON` method changes what JSON writes; a `toJSON` key holding data is just data.
      if (typeof (value as { toJSON?: unknown }).toJSON === "function" || Object.getOwnPropertySymbols(value).length > 0) {
        return false;
      }
      // Holes and named properties of an array are what JSON would silently change.
      if (Array.isArray(value)) {
        return Object.keys(value).length === value.length && value.every((item) => isJson(item, depth + 1));
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      return (
        (prototype === Object.prototype || prototype === null) &&
        Object.entries(value).every(([key, item]) => isStorable(key) && isJson(item, depth + 1))
      );
    }
    default:
      return false;
  }
}

const jsonObject = z.custom<JsonObject>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value) && isJson(value),
  "must be a JSON object",
);

const newEventSchema = z.strictObject({
  id: z.uuid().optional(),
  type: z.string().trim().min(1, "event type is required").max(255),
  data: jsonObject,
  metadata: jsonObject.optional(),
});

const appendSchema = z.object({
  streamId: z.string().trim().min(1, "stream id is required").max(512),
  events: z.array(newEventSchema).min(1, "at least one event is required"),
  expected: z.union([
    z.enum(["no_stream", "stream_exists", "any"]),
    z.bigint().nonnegative("an expected revision is never negative"),
  ]),
});

export interface ValidAppend {
  streamId: string;
  events: Required<Pick<NewEvent, "id" | "type" | "data" | "metadata">>[];
  expected: ExpectedRevision;
}

/**
 * Checks an append before any adapter touches storage, so bad input is rejected with the same
 * clear error everywhere and nothing is written. Gives every event an id.
 */
export function validateAppend(streamId: unknown, events: unknown, expected: unknown): ValidAppend {
  const parsed = appendSchema.safeParse({ streamId, events, expected });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join(".") || "append"}: ${issue.message}`);
    throw new InvalidAppendError(`Invalid append: ${issues.join("; ")}`);
  }
  return {
    streamId: parsed.data.streamId,
    expected: parsed.data.expected,
    events: parsed.data.events.map((event) => ({
      id: event.id ?? crypto.randomUUID(),
      type: event.type,
      data: event.data,
      metadata: event.metadata ?? {},
    })),
  };
}
