import { readFile, writeFile } from "node:fs/promises";
import { buildApiDocument } from "../../../src/api/openapi/document.ts";
import { schemaTypes } from "./schema-types.ts";

/**
 * Writes the service's OpenAPI document (built in-process), the client's types generated from it,
 * and the offline export verifier as `ledger verify-export` runs it (it imports only Node and canonicalize).
 */
const verifierHeader = "// Copied from the service's src/audit/verify-export.ts by `npm run client:generate`: do not edit.\n\n";

const document = await buildApiDocument();
const at = (file: string) => new URL(`../${file}`, import.meta.url);
await writeFile(at("openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
await writeFile(at("src/schema.ts"), await schemaTypes(document));
await writeFile(at("src/verify-export.ts"), verifierHeader + (await readFile(new URL("../../../src/audit/verify-export.ts", import.meta.url), "utf8")));
process.stdout.write("wrote packages/client/openapi.json, packages/client/src/schema.ts and packages/client/src/verify-export.ts\n");
