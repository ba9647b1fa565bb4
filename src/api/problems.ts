import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { EventStoreUnavailableError } from "../eventstore/errors.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { isOverload } from "../overload.ts";
import { trackAllowedMethods } from "./method-not-allowed.ts";

/** What a 503 tells the client to wait before it retries. */
export const RETRY_AFTER_SECONDS = 2;

export interface FieldError {
  path: string;
  message: string;
}

/** Codes of API.md, with their status and title. */
const problemCatalog = {
  validation_error: [400, "Validation failed"],
  card_declined: [402, "Card declined"],
  insufficient_funds: [402, "Insufficient funds"],
  expired_card: [402, "Expired card"],
  incorrect_cvc: [402, "Incorrect CVC"],
  limit_exceeded: [402, "Limit exceeded"],
  invalid_credentials: [401, "Invalid credentials"],
  forbidden: [403, "Forbidden"],
  not_found: [404, "Not found"],
  method_not_allowed: [405, "Method not allowed"],
  invalid_transaction_state: [409, "Invalid transaction state"],
  idempotency_request_in_progress: [409, "Idempotent request in progress"],
  nothing_to_settle: [409, "Nothing to settle"],
  settlement_in_progress: [409, "Settlement in progress"],
  version_conflict: [412, "Version conflict"],
  payload_too_large: [413, "Payload too large"],
  unsupported_media_type: [415, "Unsupported media type"],
  idempotency_key_reused: [422, "Idempotency key reused"],
  payment_method_user_mismatch: [422, "Payment method user mismatch"],
  amount_exceeds_capturable: [422, "Amount exceeds capturable"],
  amount_exceeds_refundable: [422, "Amount exceeds refundable"],
  host_configuration_missing: [422, "Host configuration missing"],
  host_configuration_disabled: [422, "Host configuration disabled"],
  host_configuration_ambiguous: [422, "Host configuration ambiguous"],
  rate_limited: [429, "Too many requests"],
  internal_error: [500, "Internal server error"],
  processor_error: [502, "Processor error"],
  processor_authentication_failed: [502, "Processor authentication failed"],
  service_unavailable: [503, "Service unavailable"],
  processor_timeout: [504, "Processor timeout"],
} as const satisfies Record<string, readonly [number, string]>;

export type ProblemCode = keyof typeof problemCatalog;

/** An error that the API answers as `application/problem+json`. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly title: string;
  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    /** `transaction`: the recorded transaction of a decline, failure or unknown outcome. */
    readonly extra: { errors?: FieldError[]; transaction?: object; limit?: object } = {},
  ) {
    super(detail);
    [this.status, this.title] = problemCatalog[code];
  }
}

export const notFound = (what = "resource") => new ApiProblem("not_found", `No such ${what}.`);

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem): FastifyReply {
  if (problem.code === "service_unavailable") reply.header("retry-after", RETRY_AFTER_SECONDS);
  return reply
    .code(problem.status)
    .type("application/problem+json")
    .send({
      type: `/problems/${problem.code}`,
      title: problem.title,
      status: problem.status,
      code: problem.code,
      detail: problem.detail,
      requestId: request.id,
      ...problem.extra,
    });
}

/** Turns every failure into problem+json; a 5xx never carries internals. */
export function registerProblemHandling(app: FastifyInstance): void {
  const allowedMethods = trackAllowedMethods(app);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error, request);
    // An answer the service chose (a processor's timeout or error, shedding) is no failure of its own.
    if (error instanceof ApiProblem) {
      if (problem.status >= 500) request.log.warn({ code: problem.code }, problem.title);
    } else if (problem.status >= 500) {
      request.log.error({ err: error }, "request failed");
    }
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    const allowed = allowedMethods(request);
    // A route that answers this method and still found nothing (a file under a static prefix) is a 404 too.
    if (allowed.length === 0 || allowed.includes(request.method)) {
      return sendProblem(request, reply, new ApiProblem("not_found", `No route for ${request.method} ${path}.`));
    }
    reply.header("allow", allowed.join(", "));
    return sendProblem(request, reply, new ApiProblem("method_not_allowed", `${path} answers ${allowed.join(", ")}, not ${request.method}.`));
  });
}

/**
 * Fastify's `frameworkErrors`: what fails before any route or hook runs (a path with broken
 * percent-encoding, an over-long path parameter) is problem+json too.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header("x-request-id", request.id);
  return sendProblem(request, reply, toProblem(error, request));
}

function toProblem(error: FastifyError, request: FastifyRequest): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((issue) => ({
      path: fieldPath(issue.instancePath, issue.params),
      message: issue.message ?? "is invalid",
    }));
    return new ApiProblem("validation_error", `${invalidPartOf(error.validationContext)} invalid.`, { errors });
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiProblem("payload_too_large", `The request body is over the limit of ${request.routeOptions.bodyLimit} bytes.`);
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiProblem("unsupported_media_type", "Send JSON with content-type application/json.");
    case "FST_ERR_BAD_URL":
      return new ApiProblem("validation_error", "The URL is malformed: fix its percent-encoding.");
    case "FST_ERR_MAX_PARAM_LENGTH":
      return new ApiProblem("validation_error", "A path parameter is too long.");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ApiProblem("validation_error", "The request body is missing or malformed.");
  }
  if (error.statusCode === 400 || error instanceof SyntaxError) {
    return new ApiProblem("validation_error", "The request body is not valid JSON.");
  }
  if (error.statusCode === 429) return new ApiProblem("rate_limited", "Too many requests; retry later.");
  // A bounded wait that ran out (a full queue, a database timeout) or load shed by under-pressure.
  if (isOverload(error) || error.statusCode === 503) {
    return new ApiProblem("service_unavailable", "The service is overloaded; retry later.");
  }
  // A failover, a timeout or a lost connection of the event store: what it did not confirm is not taken as done.
  if (error instanceof EventStoreUnavailableError) {
    return new ApiProblem("service_unavailable", "The event store is unavailable; retry later.");
  }
  // A restart or a failover of PostgreSQL, or a connection it ended: the retry finds it back.
  if (isDatabaseUnavailable(error)) {
    return new ApiProblem("service_unavailable", "The database is unavailable; retry later.");
  }
  return new ApiProblem("internal_error", "Something went wrong on our side; it was logged.");
}

/** Which part of the request failed its schema, in words. */
function invalidPartOf(context: string | undefined): string {
  switch (context) {
    case "body":
      return "The request body is";
    case "querystring":
      return "The query string is";
    case "params":
      return "The path parameters are";
    case "headers":
      return "The headers are";
    default:
      return "The request is";
  }
}

/** `/card/number` → `card.number`; an unknown key is named by its own path. */
function fieldPath(instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath.replace(/^\//, "").split("/").filter(Boolean);
  const keys = params.keys;
  if (Array.isArray(keys) && keys.length > 0) path.push(String(keys[0]));
  return path.join(".");
}
