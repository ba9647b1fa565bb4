// Adds up vitest JSON reports into one closing line: "tests: N passed, N failed, N skipped".
import { readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    console.error(`missing or unreadable test report: ${file}`);
    failed += 1;
    continue;
  }
  passed += report.numPassedTests;
  // A file that fails outside any test (a crashing hook, an import error) fails the run too.
  failed += report.numFailedTests || (report.success ? 0 : 1);
  skipped += report.numPendingTests + report.numTodoTests;
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
