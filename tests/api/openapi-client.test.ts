import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { copiesOfServiceCode } from "../../packages/client/scripts/copies.ts";
import { schemaTypes } from "../../packages/client/scripts/schema-types.ts";
import { buildApiDocument } from "../../src/api/openapi/document.ts";

const committed = (file: string) => readFile(new URL(`../../packages/client/${file}`, import.meta.url), "utf8");
const STALE = "is not the service's current API: run `npm run client:generate` and commit the result";

describe("the typed client package", () => {
  it("holds the service's current OpenAPI document and the types generated from it", async () => {
    const document = await buildApiDocument();
    expect((await committed("openapi.json")) === `${JSON.stringify(document, null, 2)}\n`, `packages/client/openapi.json ${STALE}`).toBe(true);
    expect((await committed("src/schema.ts")) === (await schemaTypes(document)), `packages/client/src/schema.ts ${STALE}`).toBe(true);
  });

  it("holds the service's current offline verifiers (checkpoint proofs, export verification, chain hashes)", async () => {
    for (const { file, text } of await copiesOfServiceCode()) {
      expect((await committed(file)) === text, `packages/client/${file} is not a copy of the service's current code: run \`npm run client:generate\` and commit the result`).toBe(true);
    }
  });
});
