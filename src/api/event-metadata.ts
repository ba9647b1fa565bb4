import type { FastifyRequest } from "fastify";
import type { EventMetadata } from "../commands/execute.ts";
import { traceMetadata } from "../telemetry/spans.ts";
import { principalOf } from "./auth.ts";

/** Who asked, and in which request (and trace, when traced): recorded on every event a request causes. */
export function eventMetadataOf(request: FastifyRequest): EventMetadata {
  const principal = principalOf(request);
  const key = request.headers["idempotency-key"];
  return {
    requestId: request.id,
    idempotencyKey: typeof key === "string" ? key : null,
    actor: principal.role === "admin" ? { role: "admin" } : { role: "client", clientId: principal.clientId, keyId: principal.keyId },
    ...traceMetadata(),
  };
}
