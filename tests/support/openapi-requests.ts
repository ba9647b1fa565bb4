import fc from "fast-check";

/**
 * Requests derived from the app's own OpenAPI document: for every operation, values that fit its
 * schemas, then mutated towards what a hostile or careless caller sends. Covers the JSON Schema
 * that fastify-type-provider-zod writes for our zod schemas (OpenAPI 3.1: JSON Schema 2020-12).
 */

export interface JsonSchema {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** A bound of its own in JSON Schema 2020-12; a flag on `minimum` in OpenAPI 3.0. */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number;
}

interface Parameter {
  in: "path" | "query" | "header";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: { "application/json"?: { schema: JsonSchema } } };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface Route {
  method: string;
  /** As OpenAPI names it: `/v1/clients/{clientId}`. */
  path: string;
  operation: Operation;
}

export interface FuzzRequest {
  method: string;
  /** Path and query string, encoded. */
  url: string;
  /** Every header but `authorization`. */
  headers: Record<string, string>;
  /** JSON text, or text that is not quite JSON. */
  body: string | undefined;
}

export const routesOf = (document: OpenApiDocument): Route[] =>
  Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

/** Text that trips stores, parsers and canonicalisers. */
const hostileStrings = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfff",
  "\u{1F600}",
  "\u202e\u2028\u2029",
  "\u0007\u001b[31m",
  "\ufeff",
  "toJSON",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "'; drop table events; --",
  "%00",
  "${7*7}",
  "0",
  "-1",
  "1e309",
  "NaN",
  "true",
  "null",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "4242424242424242",
  "4000000000000002",
  "x".repeat(513),
];
const hostileNumbers = [0, -1, -0, 0.5, 1e21, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, 1e-7];
const hostileValues: unknown[] = [null, true, false, [], {}, [null], { a: { b: [1] } }, ...hostileNumbers];
/** Raw query-string and path fragments, some of them invalid percent-encoding. */
const hostileRaw = ["%00", "%ED%A0%80", "%C0%80", "%", "%zz", "%FF", "..", "%2F", "%2e%2e", "a%20b", "%F0%9F%98%80"];

/** Any UTF-16 code unit: NUL and lone surrogates included, which JSON carries and stores may refuse. */
const codeUnit = fc
  .oneof(fc.integer({ min: 0, max: 0xffff }), fc.constantFrom(0, 0x1b, 0x7f, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfeff, 0x2028))
  .map((unit) => String.fromCharCode(unit));

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 40);
  const fits = (text: string) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity);
  if (!schema.pattern) {
    // Whatever the schema does not restrict, a caller may send.
    return fc.oneof(fc.string({ unit: "grapheme", minLength, maxLength }), fc.string({ unit: codeUnit, minLength, maxLength }));
  }
  const pattern = new RegExp(schema.pattern, "u");
  try {
    return fc.stringMatching(pattern).filter(fits);
  } catch {
    // Patterns fast-check cannot generate from (Unicode classes): generate, keep what matches.
    return fc
      .string({ unit: "grapheme", minLength, maxLength })
      .filter((text) => pattern.test(text) && fits(text));
  }
}

/** Values that satisfy `schema`. */
export function valueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  const value = valueOfType(schema);
  return schema.nullable ? fc.option(value, { nil: null }) : value;
}

function valueOfType(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map(valueFor));
  switch (schema.type) {
    case "string":
      return stringFor(schema);
    case "integer": {
      const exclusive = schema.exclusiveMinimum;
      const min = typeof exclusive === "number" ? Math.max(exclusive + 1, schema.minimum ?? -1e12) : (schema.minimum ?? -1e12) + (exclusive ? 1 : 0);
      const max = Math.min(schema.maximum ?? 1e12, schema.exclusiveMaximum === undefined ? 1e12 : schema.exclusiveMaximum - 1);
      return fc.integer({ min, max });
    }
    case "number":
      return fc.double({ min: schema.minimum ?? -1e12, max: schema.maximum ?? 1e12, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return fc.array(valueFor(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case "object": {
      if (schema.properties) {
        const fields = Object.fromEntries(Object.entries(schema.properties).map(([key, field]) => [key, valueFor(field)]));
        return fc.record(fields, { requiredKeys: schema.required ?? [] });
      }
      const extra = schema.additionalProperties;
      if (typeof extra === "object") return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), valueFor(extra), { maxKeys: 4 });
      return fc.constant({});
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

type Mutation =
  | { kind: "replace"; at: number; with: unknown }
  | { kind: "delete"; at: number }
  | { kind: "add"; at: number; key: string; with: unknown };

const anyHostile = fc.oneof(fc.constantFrom(...hostileStrings), fc.constantFrom(...hostileValues), fc.string({ unit: codeUnit }));

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), with: anyHostile }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("add" as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom(...hostileStrings), fc.string({ unit: codeUnit, minLength: 1, maxLength: 8 })),
    with: anyHostile,
  }),
);

/** Every object or array in `value`, and every slot in them, in a fixed order. */
function slotsOf(value: unknown): { container: Record<string, unknown>; key: string }[] {
  if (typeof value !== "object" || value === null) return [];
  const container = value as Record<string, unknown>;
  return Object.keys(container).flatMap((key) => [{ container, key }, ...slotsOf(container[key])]);
}

function containersOf(value: unknown): Record<string, unknown>[] {
  if (typeof value !== "object" || value === null) return [];
  const container = value as Record<string, unknown>;
  return [container, ...Object.values(container).flatMap(containersOf)];
}

/**
 * `value` with the mutations applied. Works on copies, so neither the generated value nor the
 * shared hostile constants are ever changed.
 */
function mutated(value: unknown, mutations: Mutation[]): unknown {
  const root = { value: structuredClone(value) };
  for (const change of mutations) {
    if (change.kind === "add") {
      const containers = containersOf(root.value);
      const target = containers[change.at % Math.max(containers.length, 1)];
      const added = { value: structuredClone(change.with), enumerable: true, writable: true, configurable: true };
      // Defined, not assigned: assigning `__proto__` would change the prototype, not add a key.
      if (target) Object.defineProperty(target, change.key, added);
      continue;
    }
    const slots = slotsOf(root);
    const slot = slots[change.at % slots.length]!;
    if (change.kind === "replace") slot.container[slot.key] = structuredClone(change.with);
    else if (slot.container !== root) delete slot.container[slot.key];
  }
  return root.value;
}

/** Valid values most of the time; mutated ones, or hostile ones, the rest. */
function fuzzed(schema: JsonSchema): fc.Arbitrary<unknown> {
  const valid = valueFor(schema);
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 3, arbitrary: fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, changes]) => mutated(value, changes)) },
    { weight: 1, arbitrary: anyHostile },
  );
}

/** Bodies that are not what `JSON.stringify` of a value gives. */
const malformedBodies = fc.constantFrom(
  "",
  "{",
  "[]",
  "null",
  '"text"',
  '{"a":1,"a":2}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  "[".repeat(5000) + "]".repeat(5000),
  `{"name":"${"\\ud800".repeat(50)}"}`,
);

/** URL-encodes text; lone surrogates, which `encodeURIComponent` refuses, are sent as U+FFFD. */
const encoded = (text: string) => encodeURIComponent(text.replace(/\p{Cs}/gu, "\uFFFD"));

function queryPart(parameter: Parameter): fc.Arbitrary<string | undefined> {
  const value = fc.oneof(
    { weight: 4, arbitrary: fuzzed(parameter.schema).map((item) => encoded(typeof item === "string" ? item : JSON.stringify(item) ?? "")) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileRaw) },
  );
  const part = value.map((text) => `${encodeURIComponent(parameter.name)}=${text}`);
  const repeated = fc.tuple(part, part).map(([one, two]) => `${one}&${two}`);
  return fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: part }, { weight: 1, arbitrary: repeated });
}

/** Requests to every route, evenly: each route's arbitrary is built once, as building is what costs. */
export const requestsFor = (routes: readonly Route[], knownIds: readonly string[]) =>
  fc.oneof(...routes.map((route) => requestFor(route, knownIds)));

/**
 * A request to `route`. Path parameters are mostly ids the caller knows exist (`knownIds`), so
 * requests reach past the lookup; the rest are random or hostile.
 */
function requestFor(route: Route, knownIds: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const parameters = route.operation.parameters ?? [];
  const pathParameters = parameters.filter((parameter) => parameter.in === "path");
  const pathValue = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...knownIds) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...hostileStrings).map(encoded), fc.constantFrom(...hostileRaw)) },
  );
  const path = fc
    .tuple(...pathParameters.map(() => pathValue))
    .map((values) => pathParameters.reduce((url, parameter, index) => url.replace(`{${parameter.name}}`, values[index]!), route.path));
  const query = fc
    .tuple(...parameters.filter((parameter) => parameter.in === "query").map(queryPart))
    .map((parts) => parts.filter((part) => part !== undefined).join("&"));
  const schema = route.operation.requestBody?.content["application/json"]?.schema;
  const body: fc.Arbitrary<string | undefined> = schema
    ? fc.oneof(
        { weight: 12, arbitrary: fuzzed(schema).map((value) => JSON.stringify(value) ?? "null") },
        { weight: 1, arbitrary: malformedBodies },
      )
    : fc.constant(undefined);
  const headers = fc.record(
    {
      "idempotency-key": fc.stringMatching(/^[\x21-\x7e]{1,12}$/),
      "if-match": fc.constantFrom('"1"', '"2"', "*", "garbage", '"999"'),
    },
    { requiredKeys: [] },
  );
  return fc.record({ path, query, body, headers }).map(({ path: url, query: search, body: text, headers: given }) => ({
    method: route.method,
    url: search ? `${url}?${search}` : url,
    headers: text === undefined ? given : { ...given, "content-type": "application/json" },
    body: text,
  }));
}
