import openapiTS, { astToString } from "openapi-typescript";
import type { OpenAPIV3_1 } from "openapi-types";

const header = "// Generated from the service's OpenAPI document by `npm run client:generate`: do not edit.\n\n";

/**
 * The document without the examples of its bodies and parameters (an object with a `schema`
 * beside them): they belong to the reference, and would only swell the types with comments.
 */
const withoutExamples = (document: OpenAPIV3_1.Document) =>
  JSON.parse(JSON.stringify(document), function (this: Record<string, unknown>, key, value) {
    return (key === "example" || key === "examples") && "schema" in this ? undefined : value;
  }) as Parameters<typeof openapiTS>[0];

/** The TypeScript types of `document`'s paths and components, as `src/schema.ts` holds them. */
export async function schemaTypes(document: OpenAPIV3_1.Document): Promise<string> {
  return header + astToString(await openapiTS(withoutExamples(document)));
}
