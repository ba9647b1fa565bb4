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
  format?: string;
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

/** One request that gives one parameter of a route a hostile value, every other one a value that reaches the handler. */
export interface ParameterProbe {
  parameter: { in: "path" | "query"; name: string };
  value: string;
  request: FuzzRequest;
}

const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const someUuid = "0190a8e2-7c3b-7def-8a12-3456789abcde";

/** Ids a careless or hostile caller sends where a UUID belongs. */
const malformedIds = [
  "",
  "x",
  "not-a-uuid",
  `${someUuid}0`,
  someUuid.slice(0, -1),
  someUuid.toUpperCase(),
  someUuid.replaceAll("-", ""),
  `{${someUuid}}`,
  "00000000-0000-0000-0000-000000000001",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "0190a8e2-7c3b-7def-8a12-3456789abcdg",
  "99999999999999999999",
  "-1",
  "1e309",
  "x".repeat(1_000),
];

/** Text that is, or looks like, a cursor: both stores' checkpoints and the lists' `<timestamp>|<id>`, out of every range. */
const forgedCursorTexts = [
  "0:0",
  "1:1",
  "99999999999999999999:1",
  "1:99999999999999999999",
  "18446744073709551615:9223372036854775807",
  "18446744073709551616:0",
  "9223372036854775808:9223372036854775808",
  "-1:-1",
  "1:2:3",
  `2025-01-01T00:00:00.000Z|${someUuid}`,
  `0000-01-01T00:00:00.000Z|${someUuid}`,
  `-000001-01-01T00:00:00.000Z|${someUuid}`,
  `+275760-09-13T00:00:00.000Z|${someUuid}`,
  `9999-12-31T23:59:59.999Z|${someUuid}`,
  `2025-02-30T00:00:00.000Z|${someUuid}`,
  `2025-01-01T00:00:00Z|not-a-uuid`,
  `2025-01-01T00:00:00.000Z|${someUuid}|x`,
  "|",
  "",
];

/** Cursors that no list gave out, and `given`: real ones, each passed to every list, its own and the others. */
const cursorValues = (given: readonly string[]) => [
  ...given,
  ...forgedCursorTexts.map(base64url),
  ...forgedCursorTexts,
  "!!!",
  "====",
  "x".repeat(201),
];

/** Where an integer belongs: out of range, not integers, not numbers, too big for any integer type. */
const numberValues = ["0", "-1", "101", "1.5", "1e2", "0x10", " 5", "", "abc", "NaN", "Infinity", "-0", "99999999999999999999", "1e309"];

/** Where a timestamp belongs: words, impossible dates, years no database stores. */
const timestampValues = [
  "yesterday",
  "now",
  "",
  "2025-02-30",
  "2025-13-01",
  "2025-01-01T24:00:00Z",
  "2025-01-01T00:00:00",
  "0000-01-01",
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "-000001-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "9999-12-31",
  "9999-12-31T23:59:59-14:00",
  "2025-01-01T00:00:00.1234567890123Z",
  "1700000000",
];

/** Where a numeric string belongs (an amount bound). */
const digitValues = ["0", "999999999999999", "9999999999999999", "99999999999999999999", "-1", "1.5", "1e3", ""];

/** What any parameter may be sent instead of its value: other types, and text that trips parsers and stores. */
const wrongTypes = ["", " ", "\u0000", "\ud800", "\u{1F600}", "'; drop table events; --", "x".repeat(513), "[]", "{}", "true", "null", "-1", "1e21", "NaN"];

const isUuid = (schema: JsonSchema) => schema.format === "uuid";
const isTimestamp = (schema: JsonSchema) => (schema.anyOf ?? []).some((alternative) => alternative.format === "date-time");

/** The hostile values of one parameter, by what its name and schema say it holds, and the wrong types any parameter gets. */
function hostileValuesOf(parameter: Parameter, cursors: readonly string[]): string[] {
  const { name, schema } = parameter;
  const specific =
    name === "cursor" || name === "after"
      ? cursorValues(cursors)
      : isUuid(schema)
        ? malformedIds
        : isTimestamp(schema)
          ? timestampValues
          : schema.type === "integer" || schema.type === "number"
            ? numberValues
            : schema.pattern?.startsWith("^\\d")
              ? digitValues
              : schema.enum
                ? ["", "SALE", `${String(schema.enum[0])},${String(schema.enum[0])}`, `${String(schema.enum[0])} `]
                : [];
  return [...new Set([...specific, ...wrongTypes])];
}

/**
 * For every path and query parameter of `route`, one request per hostile value of that parameter
 * (and one that sends the query parameter twice), with every path parameter else at the value
 * `pathValues` gives it (one that reaches the handler, so the hostile value is not answered by a
 * lookup that came first). `cursors`: real cursors, of any list.
 */
export function parameterProbes(route: Route, pathValues: Record<string, string>, cursors: readonly string[]): ParameterProbe[] {
  const parameters = (route.operation.parameters ?? []).filter(
    (parameter): parameter is Parameter & { in: "path" | "query" } => parameter.in === "path" || parameter.in === "query",
  );
  const pathWith = (name: string | undefined, value: string) =>
    route.path.replace(/\{(\w+)\}/g, (_, parameter: string) => (parameter === name ? value : encoded(pathValues[parameter] ?? someUuid)));
  const request = (path: string, query: string): FuzzRequest => ({
    method: route.method,
    url: query ? `${path}?${query}` : path,
    headers: route.method === "GET" || route.method === "DELETE" ? {} : { "content-type": "application/json" },
    body: route.method === "GET" || route.method === "DELETE" ? undefined : "{}",
  });
  return parameters.flatMap((parameter) => {
    const values = hostileValuesOf(parameter, cursors);
    const probe = (value: string, query: string, path = pathWith(undefined, "")): ParameterProbe => ({
      parameter: { in: parameter.in, name: parameter.name },
      value,
      request: request(path, query),
    });
    if (parameter.in === "path") return values.filter((value) => value !== "").map((value) => probe(value, "", pathWith(parameter.name, encoded(value))));
    const name = encodeURIComponent(parameter.name);
    return [
      ...values.map((value) => probe(value, `${name}=${encoded(value)}`)),
      probe("twice", `${name}=1&${name}=2`),
    ];
  });
}
