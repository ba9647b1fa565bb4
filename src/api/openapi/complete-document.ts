import type { OpenAPIV3_1 } from "openapi-types";
import type { Access } from "../auth.ts";
import type { ProblemCode } from "../problems.ts";
import { apiDescription, tags } from "./description.ts";
import { recordedTransaction } from "./examples.ts";
import { type OperationDoc, operationDocs } from "./operations.ts";
import { problemCodes, problemExample, problemSchema, statusOf } from "./problems.ts";

/** An operation as @fastify/swagger writes it, with the access its route declares (set by `reference.ts`). */
export type Operation = OpenAPIV3_1.OperationObject<{ "x-access"?: Access }>;

const methods = ["get", "put", "post", "delete", "patch"] as const;
type Method = (typeof methods)[number];

export interface DocumentedOperation {
  /** `POST /v1/transactions/sale`: the key of `operationDocs`. */
  key: string;
  method: Method;
  path: string;
  operation: Operation;
}

/** Every operation under /v1 in the document. */
export function v1Operations(document: OpenAPIV3_1.Document): DocumentedOperation[] {
  return Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith("/v1/"))
    .flatMap(([path, item]) =>
      methods.flatMap((method) => {
        const operation = item?.[method] as Operation | undefined;
        return operation ? [{ key: `${method.toUpperCase()} ${path}`, method, path, operation }] : [];
      }),
    );
}

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

const headers: Record<string, OpenAPIV3_1.HeaderObject> = {
  RequestId: {
    description: "The request's id: the `x-request-id` the request sent, or a new one. Problems repeat it as `requestId`.",
    schema: { type: "string" },
  },
  IdempotentReplayed: {
    description: "`true` when this answer is the replay of the first answer to the same Idempotency-Key; absent otherwise.",
    schema: { type: "string", enum: ["true"] },
  },
  RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
  ServerTiming: {
    description:
      "`processor;dur=<ms>, app;dur=<ms>`: how long this request waited on processor calls, and the rest of its time in the service (the latency the platform adds).",
    schema: { type: "string" },
  },
  ETag: {
    description: 'The host configuration\'s version, quoted (`"3"`): send it back as `If-Match` to update only that version.',
    schema: { type: "string" },
  },
};

const idempotencyKey: OpenAPIV3_1.ParameterObject = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) " +
    "and does nothing twice. Scoped to the calling key's client.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]{1,255}$" },
  example: "order-1001",
};

const ifMatchDescription =
  'The `etag` of the version you read (`"3"`): the update is refused with 412 `version_conflict` if the configuration has changed since.';

const accessText: Record<Access, string> = {
  admin: "**Who may call:** the admin key.",
  client: "**Who may call:** client keys (the admin key gets 403).",
  any: "**Who may call:** the admin key, or a client key for its own client's resources.",
};

/** Codes that come before the idempotency check, or are never stored: never replayed. */
const neverReplayed = new Set([401, 403, 413, 415, 429, 503]);

/** The codes an operation may answer: those of its kind, and those of its entry. */
function errorCodesOf({ method, path, operation }: DocumentedOperation, entry: OperationDoc): ProblemCode[] {
  const codes = new Set<ProblemCode>(["validation_error", "invalid_credentials", "rate_limited", "internal_error", "service_unavailable"]);
  const access = operation["x-access"];
  if (access === "admin" || access === "client") codes.add("forbidden");
  if (path.includes("{")) codes.add("not_found");
  if (method === "post") {
    codes.add("idempotency_request_in_progress");
    codes.add("idempotency_key_reused");
  }
  if (operation.requestBody) {
    codes.add("payload_too_large");
    codes.add("unsupported_media_type");
  }
  for (const code of entry.errors ?? []) codes.add(code);
  return problemCodes.filter((code) => codes.has(code));
}

/** The field a validation example names: the body's first required field, or else the first parameter. */
function firstFieldOf(operation: Operation): string {
  const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const required = (body?.content["application/json"]?.schema as OpenAPIV3_1.SchemaObject | undefined)?.required;
  const parameter = operation.parameters?.[0] as OpenAPIV3_1.ParameterObject | undefined;
  return required?.[0] ?? parameter?.name ?? "body";
}

const problemOutcomes: Partial<Record<ProblemCode, "declined" | "failed" | "pending">> = {
  card_declined: "declined",
  insufficient_funds: "declined",
  expired_card: "declined",
  incorrect_cvc: "declined",
  limit_exceeded: "declined",
  processor_error: "failed",
  processor_authentication_failed: "failed",
  processor_timeout: "pending",
};

/** What a 403 says, by who may call the operation. */
const forbiddenDetails: Record<Access, string> = {
  admin: "This operation needs an admin key.",
  client: "Transactions are made with client keys.",
  any: "A client key subscribes its own client only: leave out clientId.",
};

/** A problem answer as this operation sends it: a transaction route's decline carries its transaction. */
function exampleOf(code: ProblemCode, documented: DocumentedOperation) {
  const access = documented.operation["x-access"];
  if (code === "forbidden" && access) return { ...problemExample(code), detail: forbiddenDetails[access] };
  if (code === "validation_error") {
    return problemExample(code, { errors: [{ path: firstFieldOf(documented.operation), message: "Invalid input" }] });
  }
  const outcome = problemOutcomes[code];
  const recordsTransactions = documented.path.startsWith("/v1/transactions/");
  if (!outcome || !recordsTransactions) return problemExample(code);
  const transaction = recordedTransaction(outcome);
  if (code !== "limit_exceeded") return problemExample(code, { transaction });
  return problemExample(code, {
    transaction: { ...transaction, declineCode: "limit_exceeded", processorResponse: null },
    limit: { currency: "USD", limit: "dailyAmount", value: 500000, remaining: 400 },
  });
}

function errorResponses(documented: DocumentedOperation, entry: OperationDoc): OpenAPIV3_1.ResponsesObject {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of errorCodesOf(documented, entry)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const [status, codes] of [...byStatus].sort(([one], [other]) => one - other)) {
    const answers = codes.map((code) => problemExample(code));
    responses[status] = {
      description: answers.map(({ code, title }) => `\`${code}\`: ${title.toLowerCase()}`).join("; "),
      headers: {
        "x-request-id": ref("headers", "RequestId"),
        ...serverTimingOf(documented),
        ...(status === 429 || status === 503 ? { "retry-after": ref("headers", "RetryAfter") } : {}),
        ...(documented.method === "post" && !neverReplayed.has(status) ? { "idempotent-replayed": ref("headers", "IdempotentReplayed") } : {}),
      },
      content: {
        "application/problem+json": {
          schema: { allOf: [ref("schemas", "Problem"), { type: "object", properties: { code: { type: "string", enum: codes } } }] },
          examples: Object.fromEntries(answers.map(({ code, title }) => [code, { summary: title, value: exampleOf(code, documented) }])),
        },
      },
    };
  }
  return responses;
}

/** Every `/v1` answer carries it (src/api/server-timing.ts). */
const serverTimingOf = (documented: DocumentedOperation): Record<string, OpenAPIV3_1.ReferenceObject> =>
  documented.path.startsWith("/v1/") ? { "server-timing": ref("headers", "ServerTiming") } : {};

const successDescriptions: Record<string, string> = { "200": "OK", "201": "Created", "202": "Accepted", "204": "No content" };

function withSuccessDocumented(documented: DocumentedOperation, entry: OperationDoc): OpenAPIV3_1.ResponsesObject {
  const responses = { ...(documented.operation.responses ?? {}) } as Record<string, OpenAPIV3_1.ResponseObject>;
  for (const [status, response] of Object.entries(responses)) {
    if (!status.startsWith("2")) continue;
    const json = response.content?.["application/json"];
    responses[status] = {
      ...response,
      description: response.description === "Default Response" ? (successDescriptions[status] ?? "Success") : response.description,
      headers: {
        ...response.headers,
        "x-request-id": ref("headers", "RequestId"),
        ...serverTimingOf(documented),
        ...(documented.method === "post" ? { "idempotent-replayed": ref("headers", "IdempotentReplayed") } : {}),
        ...(entry.etag ? { etag: ref("headers", "ETag") } : {}),
      },
      ...(json && entry.response !== undefined ? { content: { "application/json": { ...json, example: entry.response } } } : {}),
    };
  }
  return responses;
}

function withParametersDocumented(documented: DocumentedOperation): Operation["parameters"] {
  const parameters = (documented.operation.parameters ?? []).map((parameter) => {
    const header = parameter as OpenAPIV3_1.ParameterObject;
    return header.in === "header" && header.name === "if-match" ? { ...header, name: "If-Match", description: ifMatchDescription } : parameter;
  });
  return documented.method === "post" ? [...parameters, ref("parameters", "IdempotencyKey")] : parameters;
}

function withRequestExample(operation: Operation, entry: OperationDoc): Operation["requestBody"] {
  const body = operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
  const json = body?.content["application/json"];
  if (!body || !json || entry.request === undefined) return body;
  return { ...body, content: { ...body.content, "application/json": { ...json, example: entry.request } } };
}

function documentedOperation(documented: DocumentedOperation, entry: OperationDoc): Operation {
  const { operation } = documented;
  const access = operation["x-access"];
  const description = [operation.description, entry.description?.trim(), access && accessText[access]].filter(Boolean).join("\n\n");
  const parameters = withParametersDocumented(documented);
  const requestBody = withRequestExample(operation, entry);
  return {
    ...operation,
    description,
    ...(parameters?.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...withSuccessDocumented(documented, entry), ...errorResponses(documented, entry) },
  };
}

/** GET /metrics without its token, when the service runs with one. */
const tokenRefused: OpenAPIV3_1.ResponseObject = {
  description: "`invalid_credentials`: the service runs with `METRICS_TOKEN` and the request did not send it",
  content: {
    "application/problem+json": {
      schema: ref("schemas", "Problem"),
      example: { ...problemExample("invalid_credentials"), detail: "Send the metrics token as `Authorization: Bearer <METRICS_TOKEN>`." },
    },
  },
};

const metricsRoute: { path: string; method: Method } = { path: "/metrics", method: "get" };

function withTokenRefused(operation: Operation): Operation {
  const responses = operation.responses as OpenAPIV3_1.ResponsesObject;
  return { ...operation, responses: { ...responses, 401: tokenRefused } };
}

/** Every `$ref` in `value`, at any depth. */
function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.add(item);
      else refsIn(item, found);
    }
  }
  return found;
}

/**
 * Only the schemas something refers to: fastify-type-provider-zod writes an `…Input` twin of
 * every named response schema, which no operation uses.
 */
function usedSchemas(document: OpenAPIV3_1.Document): Record<string, OpenAPIV3_1.SchemaObject> {
  const all = document.components?.schemas ?? {};
  const { schemas: _all, ...rest } = document.components ?? {};
  const pending = [...refsIn([document.paths, rest])];
  const used = new Set<string>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const name = next.replace("#/components/schemas/", "");
    if (next === name || used.has(name) || !all[name]) continue;
    used.add(name);
    pending.push(...refsIn(all[name]));
  }
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

/**
 * The document @fastify/swagger generated from the route schemas, made complete: the service's
 * own description, every error answer (one `Problem` schema), headers, and an example of each
 * request and answer, from `operationDocs`.
 */
export function completeDocument(generated: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const paths: OpenAPIV3_1.PathsObject = { ...generated.paths };
  for (const documented of v1Operations(generated)) {
    const entry = operationDocs[documented.key];
    if (!entry) continue; // The completeness test names it.
    paths[documented.path] = { ...paths[documented.path], [documented.method]: documentedOperation(documented, entry) };
  }
  const metrics = paths[metricsRoute.path]?.[metricsRoute.method] as Operation | undefined;
  if (metrics) paths[metricsRoute.path] = { ...paths[metricsRoute.path], [metricsRoute.method]: withTokenRefused(metrics) };
  const document: OpenAPIV3_1.Document = {
    ...generated,
    info: { ...generated.info, description: apiDescription },
    tags,
    paths,
    components: {
      ...generated.components,
      schemas: { ...generated.components?.schemas, Problem: problemSchema },
      headers,
      parameters: { IdempotencyKey: idempotencyKey },
    },
  };
  return { ...document, components: { ...document.components, schemas: usedSchemas(document) } };
}
