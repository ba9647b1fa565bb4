import { readFile } from "node:fs/promises";

/**
 * The service's code the client package carries: the offline verifiers `ledger verify-export`
 * runs, of an export (with the chain-hash rule it imports) and of checkpoints; together they import
 * only Node and canonicalize. Each is written by `npm run client:generate`, never edited by hand; a
 * test compares the package's files with what this makes.
 */
const copies: { file: string; from: string; adapt?: (text: string) => string }[] = [
  { file: "src/chain-hash.ts", from: "src/eventstore/chain-hash.ts" },
  // The package's build keeps import specifiers as written: `.js`, next to it.
  { file: "src/verify-export.ts", from: "src/audit/verify-export.ts", adapt: (text) => text.replace('from "../eventstore/chain-hash.ts"', 'from "./chain-hash.js"') },
  { file: "src/checkpoint-proof.ts", from: "src/audit/checkpoint-proof.ts" },
];

/** Each copy's path in packages/client and its text, a header naming its source first. */
export async function copiesOfServiceCode(): Promise<{ file: string; text: string }[]> {
  return Promise.all(
    copies.map(async ({ file, from, adapt = (text) => text }) => {
      const source = await readFile(new URL(`../../../${from}`, import.meta.url), "utf8");
      return { file, text: `// Copied from the service's ${from} by \`npm run client:generate\`: do not edit.\n\n${adapt(source)}` };
    }),
  );
}
