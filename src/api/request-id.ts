import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const acceptable = /^[\x21-\x7e]{1,128}$/;

/** Echoes a sane `x-request-id` from the caller; otherwise makes one. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers["x-request-id"];
  return typeof given === "string" && acceptable.test(given) ? given : randomUUID();
}
