import type { JsonValue } from "../../eventstore/port.ts";

/**
 * What the simulator keeps of a message for tests to read: card numbers cut to their last four,
 * CVCs and secrets replaced. The names cover every processor's message.
 */

const cardNumberKeys = new Set(["pan", "accountNumber", "ssl_card_number", "number"]);
const secretKeys = new Set(["cvv2", "securityCode", "ssl_cvv2cvc2", "cvc", "ssl_pin", "password", "secretApiKey"]);
const secretHeaders = new Set(["authorization", "x-datawire-id"]);

export const REDACTED = "[redacted]";

const lastFour = (number: string) => `${"*".repeat(Math.max(0, number.length - 4))}${number.slice(-4)}`;

function redactValue(key: string, value: JsonValue): JsonValue {
  if (typeof value === "string" && cardNumberKeys.has(key)) return lastFour(value);
  if (secretKeys.has(key)) return REDACTED;
  return redactJson(value);
}

export function redactJson(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(key, item)]));
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name] = secretHeaders.has(name) ? REDACTED : Array.isArray(value) ? value.join(", ") : value;
  }
  return result;
}
