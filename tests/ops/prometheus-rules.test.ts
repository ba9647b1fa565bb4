import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/api/metrics.ts";

const rules = fileURLToPath(new URL("../../ops/prometheus/alerts.yml", import.meta.url));
const rulesTests = fileURLToPath(new URL("../../ops/prometheus/alerts.test.yml", import.meta.url));

/** Whether promtool runs here: CI installs it (.ci/run) and sets REQUIRE_PROMTOOL, so there it must. */
const promtoolRuns = spawnSync("promtool", ["--version"]).status === 0;
if (!promtoolRuns) {
  if (process.env.REQUIRE_PROMTOOL) throw new Error("promtool is required (REQUIRE_PROMTOOL is set) but does not run: install Prometheus's promtool");
  console.warn("tests/ops/prometheus-rules.test.ts skipped: promtool is not installed here (apt-get install prometheus, or Prometheus's release tarball)");
}

const promtool = (args: string[], input?: string) => {
  const result = spawnSync("promtool", args, { input, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe.skipIf(!promtoolRuns)("promtool", () => {
  it("checks the alert rules of ops/prometheus and passes their tests", () => {
    expect(promtool(["check", "rules", rules])).toMatchObject({ status: 0 });
    const tested = promtool(["test", "rules", rulesTests]);
    expect(tested.status, tested.output).toBe(0);
  });

  it("finds nothing to say of the service's metrics (names, types, help)", async () => {
    const metrics = createMetrics({
      measureLags: async () => [],
      countPending: async () => ({ byAge: { "<1m": 0, "1m-10m": 0, "10m-1h": 0, ">=1h": 0 }, oldestSeconds: 0 }),
      countMismatchedSettlements: async () => 0,
      measureWebhookQueue: async () => ({ pending: 0, oldestSeconds: 0 }),
    });
    metrics.observeRequest({ method: "POST", route: "/v1/transactions/sale", status: "504" }, 0.2);
    const checked = promtool(["check", "metrics"], await metrics.expose("prometheus"));
    expect(checked.output).toBe("");
    expect(checked.status).toBe(0);
  });
});

