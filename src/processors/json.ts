import type { JsonObject, JsonValue } from "../eventstore/port.ts";

/** Drops absent and `null` fields, so optional settings are left out of a message rather than sent empty. */
export function compact(fields: Record<string, JsonValue | undefined>): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) result[key] = value;
  }
  return result;
}
