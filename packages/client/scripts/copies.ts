import { readFile } from "node:fs/promises";

/** The journal's posting rules, which `ledger verify-export --trial-balance` recomputes an export's journal with. */
const journalModules = ["accounts", "balances", "books", "entries", "index", "payment-events", "payment-postings", "settlement-postings"];

/** The package's build keeps import specifiers as written: `.js` for a relative `.ts` import. */
const withJsSpecifiers = (text: string) => text.replace(/from "(\.{1,2}\/[^"]+)\.ts"/g, 'from "$1.js"');

/**
 * The service's code the client package carries: the offline verifiers `ledger verify-export`
 * runs, of an export (with the chain-hash rule it imports), of checkpoints, and of a served trial
 * balance (with the journal's posting rules and the processors they name, kept in
 * src/domain/ as in the service); together they import only Node, canonicalize and uuid. Each is
 * written by `npm run client:generate`, never edited by hand; a test compares the package's files
 * with what this makes.
 */
const copies: { file: string; from: string; adapt?: (text: string) => string }[] = [
  { file: "src/chain-hash.ts", from: "src/eventstore/chain-hash.ts" },
  { file: "src/verify-export.ts", from: "src/audit/verify-export.ts", adapt: (text) => text.replace('from "../eventstore/chain-hash.ts"', 'from "./chain-hash.js"') },
  { file: "src/checkpoint-proof.ts", from: "src/audit/checkpoint-proof.ts" },
  { file: "src/export-journal.ts", from: "src/audit/export-journal.ts", adapt: (text) => withJsSpecifiers(text.replaceAll('from "../domain/', 'from "./domain/')) },
  { file: "src/domain/processors.ts", from: "src/domain/processors.ts" },
  ...journalModules.map((name) => ({ file: `src/domain/journal/${name}.ts`, from: `src/domain/journal/${name}.ts`, adapt: withJsSpecifiers })),
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
