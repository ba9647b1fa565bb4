import { createRequire } from "node:module";
import { Validator } from "@seriousme/openapi-schema-validator";
import type { OpenAPIV3_1 } from "openapi-types";
import { beforeAll, describe, expect, it } from "vitest";
import { type DocumentedOperation, v1Operations } from "../../src/api/openapi/complete-document.ts";
import { buildApiDocument } from "../../src/api/openapi/document.ts";
import { operationDocs } from "../../src/api/openapi/operations.ts";

/**
 * The validator's own JSON Schema 2020-12 engine (Ajv), resolved from its package so the root's
 * older Ajv (eslint's) is not picked up. Strict: a keyword 2020-12 does not know is an error.
 */
interface SchemaValidator {
  addSchema(schema: object, key: string): void;
  validate(schema: object, data: unknown): boolean;
  errors?: unknown[] | null;
}
const requireFromValidator = createRequire(import.meta.resolve("@seriousme/openapi-schema-validator"));
const { default: Ajv2020 } = requireFromValidator("ajv/dist/2020.js") as {
  default: new (options: object) => SchemaValidator;
};
const { default: addFormats } = requireFromValidator("ajv-formats") as { default: (ajv: SchemaValidator) => void };

const SCHEMA_BASE = "https://ledger.test/schemas/";
/** Component references made absolute, so each schema compiles on its own. */
const absolute = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${SCHEMA_BASE}`));

const testCards = [
  "4242424242424242",
  "5555555555554444",
  "378282246310005",
  "4000000000000002",
  "4000000000009995",
  "4000000000000069",
  "4000000000000127",
  "4000000000000119",
  "4000000000000408",
  "4000000000000424",
];

type Media = OpenAPIV3_1.MediaTypeObject;
const jsonBody = (operation: DocumentedOperation["operation"]) =>
  (operation.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content["application/json"];
const responsesOf = (operation: DocumentedOperation["operation"]) =>
  Object.entries(operation.responses as Record<string, OpenAPIV3_1.ResponseObject>);

describe("the OpenAPI document", () => {
  let document: OpenAPIV3_1.Document;
  let operations: DocumentedOperation[];

  beforeAll(async () => {
    document = await buildApiDocument();
    operations = v1Operations(document);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("has an entry for every /v1 operation the app registers, and none for an operation it does not", () => {
    expect(operations.length).toBeGreaterThan(40);
    const registered = operations.map((operation) => operation.key).sort();
    expect(registered.filter((key) => !(key in operationDocs)), "operations without an entry in operationDocs").toEqual([]);
    expect(Object.keys(operationDocs).filter((key) => !registered.includes(key)), "entries of no registered operation").toEqual([]);
  });

  it("gives every operation a tag, a description, who may call it, and an example of each body", () => {
    for (const { key, method, operation } of operations) {
      expect(operation.tags?.length, key).toBeGreaterThan(0);
      expect(operation.description, key).toMatch(/\*\*Who may call:\*\*/);
      const body = jsonBody(operation);
      if (body) expect(body.example, `${key}: request example`).toBeDefined();
      else expect(operationDocs[key]?.request, `${key} takes no body`).toBeUndefined();
      const successes = responsesOf(operation).filter(([status]) => status.startsWith("2"));
      expect(successes, key).toHaveLength(1);
      for (const [status, response] of successes) {
        if (status !== "204") expect(response.content?.["application/json"]?.example, `${key}: response example`).toBeDefined();
        expect(Object.keys(response.headers ?? {}), key).toContain("x-request-id");
        if (method === "post") expect(Object.keys(response.headers ?? {}), key).toContain("idempotent-replayed");
      }
      const parameters = (operation.parameters ?? []).map((parameter) => (parameter as OpenAPIV3_1.ReferenceObject).$ref ?? "");
      expect(parameters.includes("#/components/parameters/IdempotencyKey"), key).toBe(method === "post");
    }
  });

  it("documents every error as application/problem+json with the one Problem schema, by status", () => {
    const codes = (document.components?.schemas?.Problem?.properties?.code as OpenAPIV3_1.SchemaObject).enum;
    for (const { key, operation } of operations) {
      const errors = responsesOf(operation).filter(([status]) => Number(status) >= 400);
      expect(errors.map(([status]) => status), key).toEqual(expect.arrayContaining(["400", "401", "429", "500", "503"]));
      for (const [status, response] of errors) {
        const problem = response.content?.["application/problem+json"] as Media;
        const [shared, narrowed] = (problem.schema as OpenAPIV3_1.SchemaObject).allOf as OpenAPIV3_1.SchemaObject[];
        expect(shared, `${key} ${status}`).toEqual({ $ref: "#/components/schemas/Problem" });
        const answered = (narrowed?.properties?.code as OpenAPIV3_1.SchemaObject).enum as string[];
        expect(codes).toEqual(expect.arrayContaining(answered));
        expect(Object.keys(problem.examples ?? {}), `${key} ${status}`).toEqual(answered);
        for (const code of answered) expect(response.description).toContain(`\`${code}\``);
        expect(Object.keys(response.headers ?? {})).toContain("x-request-id");
        if (status === "429" || status === "503") expect(Object.keys(response.headers ?? {})).toContain("retry-after");
      }
    }
  });

  it("lists the codes a sale can answer, per status", () => {
    const sale = operations.find((operation) => operation.key === "POST /v1/transactions/sale")!;
    const codesByStatus = Object.fromEntries(
      responsesOf(sale.operation)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => [status, Object.keys(response.content?.["application/problem+json"]?.examples ?? {})]),
    );
    expect(codesByStatus).toEqual({
      "400": ["validation_error"],
      "401": ["invalid_credentials"],
      "402": ["card_declined", "insufficient_funds", "expired_card", "incorrect_cvc", "limit_exceeded"],
      "403": ["forbidden"],
      "404": ["not_found"],
      "409": ["idempotency_request_in_progress"],
      "413": ["payload_too_large"],
      "415": ["unsupported_media_type"],
      "422": ["idempotency_key_reused", "host_configuration_missing", "host_configuration_disabled", "host_configuration_ambiguous"],
      "429": ["rate_limited"],
      "500": ["internal_error"],
      "502": ["processor_error", "processor_authentication_failed"],
      "503": ["service_unavailable"],
      "504": ["processor_timeout"],
    });
  });

  it("names the etag, If-Match and allow headers where they are sent", () => {
    for (const { key, method, path, operation } of operations.filter(({ path }) => path.startsWith("/v1/host-configurations/"))) {
      const success = responsesOf(operation).find(([status]) => status.startsWith("2"))![1];
      const carriesEtag = !path.endsWith("/settle") && !path.endsWith("/versions") && (method !== "get" || path.endsWith("{id}"));
      expect("etag" in (success.headers ?? {}), key).toBe(carriesEtag);
      const ifMatch = (operation.parameters ?? []).some((parameter) => (parameter as OpenAPIV3_1.ParameterObject).name === "If-Match");
      expect(ifMatch, key).toBe(method === "put" && path.endsWith("{id}"));
    }
    // Any path may answer 405 with `allow`, for a method it has no operation of: OpenAPI has no place for it but the description.
    expect(document.info.description).toMatch(/405 `method_not_allowed`, with an `allow` header/);
  });

  it("holds only JSON Schema 2020-12, and every example fits its schema", () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, allErrors: true });
    addFormats(ajv);
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) ajv.addSchema(absolute(schema), `${SCHEMA_BASE}${name}`);
    const fits = (label: string, schema: object | undefined, value: unknown) => {
      expect(schema, label).toBeDefined();
      expect(ajv.validate(absolute(schema!), value) ? null : ajv.errors, label).toBeNull();
    };
    let examples = 0;
    for (const { key, operation } of operations) {
      const body = jsonBody(operation);
      if (body?.example !== undefined) {
        fits(`${key} request`, body.schema, body.example);
        examples += 1;
      }
      for (const [status, response] of responsesOf(operation)) {
        for (const media of Object.values(response.content ?? {})) {
          if (media.example !== undefined) fits(`${key} ${status}`, media.schema, media.example);
          for (const [name, example] of Object.entries(media.examples ?? {})) {
            fits(`${key} ${status} ${name}`, media.schema, (example as OpenAPIV3_1.ExampleObject).value);
            examples += 1;
          }
        }
      }
    }
    expect(examples).toBeGreaterThan(400);
  });

  it("explains itself without files the reader cannot reach, and shows the test cards where payments are made", () => {
    const description = document.info.description ?? "";
    for (const topic of ["## Authentication", "## Idempotency", "## Errors", "## Pagination", "## Test cards"]) expect(description).toContain(topic);
    expect(JSON.stringify(document)).not.toMatch(/API\.md|DESIGN\.md|README/);
    for (const key of ["POST /v1/transactions/sale", "POST /v1/transactions/authorization"]) {
      const payment = operations.find((operation) => operation.key === key)!;
      for (const card of testCards) expect(payment.operation.description, `${key} ${card}`).toContain(card);
    }
    const everyOperation = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item ?? {}) as OpenAPIV3_1.OperationObject[]);
    expect(document.tags?.map((tag) => tag.name).sort()).toEqual(
      [...new Set(everyOperation.flatMap((operation) => operation.tags ?? []))].sort(),
    );
  });
});
