// Prints the slowest test files of a vitest JSON report, with their time and test count: where a
// run's time goes, at the end of every CI run. Usage: node scripts/slowest-test-files.mjs <report.json> [count]
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const [file, count = "15"] = process.argv.slice(2);
const report = JSON.parse(readFileSync(file, "utf8"));
const files = (report.testResults ?? [])
  .map((suite) => ({ path: relative(process.cwd(), suite.name), seconds: (suite.endTime - suite.startTime) / 1000, tests: suite.assertionResults?.length ?? 0 }))
  .sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, suite) => sum + suite.seconds, 0);
console.log(`== the ${Math.min(Number(count), files.length)} slowest of ${files.length} test files (${total.toFixed(0)} s of test files in all, run side by side)`);
for (const suite of files.slice(0, Number(count))) {
  console.log(`${suite.seconds.toFixed(1).padStart(7)} s  ${String(suite.tests).padStart(4)} tests  ${suite.path}`);
}
