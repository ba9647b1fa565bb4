// Adds up vitest JSON reports into one closing line: "tests: N passed, N failed, N skipped",
// preceded by every failure's file, name and first lines of its message: CI keeps only the end
// of a long output, and a bare count says nothing about what to fix.
import { readFileSync } from "node:fs";
import { basename, relative } from "node:path";

const MESSAGE_LINES = 6;

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const file of process.argv.slice(2)) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    console.error(`missing or unreadable test report: ${file}`);
    failed += 1;
    continue;
  }
  const run = basename(file, ".json");
  passed += report.numPassedTests;
  // A file that fails outside any test (a crashing hook, an import error) fails the run too.
  failed += report.numFailedTests || (report.success ? 0 : 1);
  skipped += report.numPendingTests + report.numTodoTests;
  for (const suite of report.testResults ?? []) {
    const path = relative(process.cwd(), suite.name);
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      failures.push({ run, path, name: test.fullName, message: test.failureMessages?.join("\n") ?? "" });
    }
    if (suite.status === "failed" && failedTests.length === 0) {
      failures.push({ run, path, name: "(outside any test)", message: suite.message ?? "" });
    }
  }
}
for (const failure of failures) {
  console.log(`FAILED [${failure.run}] ${failure.path} > ${failure.name}`);
  for (const line of failure.message.split("\n").slice(0, MESSAGE_LINES)) console.log(`    ${line}`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
