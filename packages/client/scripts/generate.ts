import { writeFile } from "node:fs/promises";
import { buildApiDocument } from "../../../src/api/openapi/document.ts";
import { schemaTypes } from "./schema-types.ts";

/** Writes the service's OpenAPI document (built in-process) and the client's types generated from it. */
const document = await buildApiDocument();
const at = (file: string) => new URL(`../${file}`, import.meta.url);
await writeFile(at("openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
await writeFile(at("src/schema.ts"), await schemaTypes(document));
process.stdout.write("wrote packages/client/openapi.json and packages/client/src/schema.ts\n");
