import { mkdir, writeFile } from "node:fs/promises";
import { buildApiDocument } from "../../../src/api/openapi/document.ts";
import { copiesOfServiceCode } from "./copies.ts";
import { schemaTypes } from "./schema-types.ts";

/**
 * Writes the service's OpenAPI document (built in-process), the client's types generated from it,
 * and the copies of the service's offline verifiers (./copies.ts).
 */
const document = await buildApiDocument();
const at = (file: string) => new URL(`../${file}`, import.meta.url);
await writeFile(at("openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
await writeFile(at("src/schema.ts"), await schemaTypes(document));
const copies = await copiesOfServiceCode();
for (const { file, text } of copies) {
  await mkdir(new URL(".", at(file)), { recursive: true });
  await writeFile(at(file), text);
}
process.stdout.write(`wrote packages/client/openapi.json, src/schema.ts, ${copies.map(({ file }) => file).join(", ")}\n`);
