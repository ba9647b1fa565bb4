import type { OpenAPIV3_1 } from "openapi-types";
import { ApiProblem, type ProblemCode } from "../problems.ts";

/**
 * What each problem code's `detail` says in the document's examples. A `Record` of every code, so
 * a code added to the API does not compile until it is documented here.
 */
const exampleDetails: Record<ProblemCode, string> = {
  validation_error: "The request body is invalid.",
  invalid_credentials: "The API key is unknown or revoked.",
  forbidden: "This operation needs an admin key.",
  not_found: "No such transaction.",
  method_not_allowed: "/v1/transactions/sale answers POST, not GET.",
  card_declined: "The card was declined: Do not honor (05).",
  insufficient_funds: "The card was declined: Insufficient funds (51).",
  expired_card: "The card was declined: Expired card (54).",
  incorrect_cvc: "The card was declined: CVC mismatch (N7).",
  limit_exceeded: "The client's dailyAmount limit in USD would be exceeded.",
  invalid_transaction_state: "The sale is settled: it can no longer be voided.",
  idempotency_request_in_progress: "A request with this Idempotency-Key is still running; retry once it has answered.",
  nothing_to_settle: "The host configuration has no unsettled transaction.",
  settlement_in_progress: "Another batch of this host configuration is being closed. Retry once it is closed.",
  version_conflict: "If-Match names version 2, but the host configuration is at version 3.",
  payload_too_large: "The request body is over the limit of 65536 bytes.",
  unsupported_media_type: "Send JSON with content-type application/json.",
  idempotency_key_reused: "This Idempotency-Key was used with a different request.",
  payment_method_user_mismatch: "The payment method was stored for another `userId`: nothing was recorded or sent.",
  amount_exceeds_capturable: "The amount exceeds what is left to capture (2000).",
  amount_exceeds_refundable: "The amount exceeds what is left to refund (799).",
  host_configuration_missing: "This client has no processor_a host configuration.",
  host_configuration_disabled: "The processor_a host configuration is disabled.",
  host_configuration_ambiguous:
    "This client has 2 enabled processor_a host configurations and none is the default: pass hostConfigurationId.",
  rate_limited: "Too many requests; retry in 1 minute.",
  internal_error: "Something went wrong on our side; it was logged.",
  processor_error: "The processor could not process the transaction: System error (96).",
  processor_authentication_failed:
    "The processor rejected the credentials of host configuration 0197a3c3-0a1b-7c2d-8e3f-4a5b6c7d8e9f: replace them with PUT /v1/host-configurations/processor_c/0197a3c3-0a1b-7c2d-8e3f-4a5b6c7d8e9f.",
  service_unavailable: "The service is overloaded; retry later.",
  processor_timeout: "The processor did not answer in time; the transaction stays pending until it does.",
};

export const problemCodes = Object.keys(exampleDetails) as ProblemCode[];

export const statusOf = (code: ProblemCode): number => new ApiProblem(code, "").status;

const REQUEST_ID = "5f0c6a0e-2b7d-4f8e-9a31-0c4d2e6b8f17";

/** An answer with `code`, as the service sends it; `extra` adds `errors`, `transaction` or `limit`. */
export function problemExample(code: ProblemCode, extra: Record<string, unknown> = {}) {
  const problem = new ApiProblem(code, exampleDetails[code]);
  return {
    type: `/problems/${code}`,
    title: problem.title,
    status: problem.status,
    code,
    detail: problem.detail,
    requestId: REQUEST_ID,
    ...extra,
  };
}

/** The one schema of every error answer (RFC 9457), as the `Problem` component. */
export const problemSchema: OpenAPIV3_1.SchemaObject = {
  type: "object",
  description: "An error answer (RFC 9457 problem details), sent as `application/problem+json`.",
  required: ["type", "title", "status", "code", "detail", "requestId"],
  properties: {
    type: { type: "string", description: "`/problems/<code>`.", examples: ["/problems/card_declined"] },
    title: { type: "string", description: "A short, fixed summary of the code." },
    status: { type: "integer", description: "The HTTP status, repeated." },
    code: { type: "string", enum: problemCodes, description: "What went wrong, for programs to branch on." },
    detail: { type: "string", description: "What went wrong this time, for people." },
    requestId: { type: "string", description: "The request's id, as in the `x-request-id` header: quote it when asking for help." },
    errors: {
      type: "array",
      description: "With `validation_error`: every field that failed, by its path in the body, query or path.",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: {
          path: { type: "string", examples: ["card.number"] },
          message: { type: "string", examples: ["fails the Luhn check"] },
        },
      },
    },
    transaction: {
      $ref: "#/components/schemas/Transaction",
      description:
        "When a transaction was recorded (a decline, a failure, an unknown outcome): the transaction as it stands. " +
        "A `processor_timeout` transaction is `pending` and is resolved later; read it with `GET /v1/transactions/{id}`.",
    },
    limit: {
      type: "object",
      description:
        "With `limit_exceeded`: which of the client's limits the transaction would exceed, as it stood when the transaction " +
        "was declined (a retry with its Idempotency-Key answers the same). Absent for declines recorded before 2026-11-27.",
      required: ["currency", "limit", "value", "remaining"],
      properties: {
        currency: { type: "string" },
        limit: { type: "string", enum: ["maxAmountPerTransaction", "dailyAmount", "dailyCount"] },
        value: { type: "integer", description: "The limit as set." },
        remaining: { type: "integer", description: "What was left of it that day (UTC)." },
      },
    },
  },
};
