import { readFile, writeFile } from "node:fs/promises";
import { buildApiDocument } from "../../../src/api/openapi/document.ts";
import { schemaTypes } from "./schema-types.ts";

/**
 * Writes the service's OpenAPI document (built in-process), the client's types generated from it,
 * and the offline verifiers `ledger verify-export` runs: of an export, with the chain-hash rule it
 * imports, and of checkpoints (together they import only Node and canonicalize).
 */
const copiedHeader = (from: string) => `// Copied from the service's ${from} by \`npm run client:generate\`: do not edit.\n\n`;

const document = await buildApiDocument();
const at = (file: string) => new URL(`../${file}`, import.meta.url);
const source = (file: string) => readFile(new URL(`../../../${file}`, import.meta.url), "utf8");
await writeFile(at("openapi.json"), `${JSON.stringify(document, null, 2)}\n`);
await writeFile(at("src/schema.ts"), await schemaTypes(document));
await writeFile(at("src/chain-hash.ts"), copiedHeader("src/eventstore/chain-hash.ts") + (await source("src/eventstore/chain-hash.ts")));
// The package's build keeps import specifiers as written: `.js`, next to it.
const verifier = (await source("src/audit/verify-export.ts")).replace('from "../eventstore/chain-hash.ts"', 'from "./chain-hash.js"');
await writeFile(at("src/verify-export.ts"), copiedHeader("src/audit/verify-export.ts") + verifier);
await writeFile(at("src/checkpoint-proof.ts"), copiedHeader("src/audit/checkpoint-proof.ts") + (await source("src/audit/checkpoint-proof.ts")));
process.stdout.write("wrote packages/client/openapi.json, src/schema.ts, src/chain-hash.ts, src/verify-export.ts and src/checkpoint-proof.ts\n");
