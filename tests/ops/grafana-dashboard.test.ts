import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startTestService, type TestService } from "../support/service.ts";
import { parsePrometheusText, type Scrape, scrape } from "./prometheus-text.ts";

const datasource = z.object({ type: z.literal("prometheus"), uid: z.literal("${datasource}") });
const target = z.object({ refId: z.string(), datasource, expr: z.string().min(1) });
const panel = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string().min(1),
  datasource: datasource.optional(),
  targets: z.array(target).optional(),
});
const dashboardSchema = z.object({
  schemaVersion: z.number().min(39),
  title: z.string(),
  panels: z.array(panel),
  templating: z.object({ list: z.array(z.object({ name: z.string(), type: z.string(), query: z.unknown() })) }),
});

const dashboard = dashboardSchema.parse(JSON.parse(readFileSync(new URL("../../ops/grafana/payment-ledger.json", import.meta.url), "utf8")));

/** PromQL words that are neither functions nor metrics. */
const keywords = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"]);

/**
 * The metric names a PromQL expression reads: every identifier once strings, label matchers,
 * ranges, grouping label lists and dashboard variables are taken out, that is not a function
 * (followed by `(`) or a keyword.
 */
function metricNamesIn(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, "{}")
    .replace(/\[[^\]]*\]/g, "[]")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "")
    .replace(/\$\{?\w+\}?/g, "");
  const names: string[] = [];
  for (const match of bare.matchAll(/(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const followedBy = bare.slice(match.index + match[0].length).trimStart();
    if (!followedBy.startsWith("(") && !keywords.has(match[0])) names.push(match[0]);
  }
  return names;
}

/**
 * The metric names a query variable reads. Grafana's Prometheus variables take
 * `label_values(<selector>, <label>)` and `query_result(<PromQL>)` besides plain PromQL;
 * `label_values(<label>)` and `label_names()` read no metric.
 */
function metricNamesInVariableQuery(query: string): string[] {
  const labelValuesOfSelector = /^label_values\((.+),\s*\w+\s*\)$/.exec(query.trim());
  if (labelValuesOfSelector) return metricNamesIn(labelValuesOfSelector[1]!);
  if (/^(?:label_values\(\s*\w+\s*\)|label_names\(\s*\))$/.test(query.trim())) return [];
  const queryResult = /^query_result\((.+)\)$/.exec(query.trim());
  return metricNamesIn(queryResult ? queryResult[1]! : query);
}

const variableQuery = z.union([z.string(), z.object({ query: z.string() }).transform(({ query }) => query)]);
const queryVariables = dashboard.templating.list
  .filter((variable) => variable.type === "query")
  .map((variable) => ({ name: variable.name, query: variableQuery.parse(variable.query) }));

/** The family a series name belongs to: itself, or the histogram or summary whose _bucket, _sum or _count it is. */
function familyOf(name: string, scraped: Scrape): string | undefined {
  if (scraped.families.has(name)) return name;
  const base = /^(.*)_(?:bucket|sum|count)$/.exec(name)?.[1];
  const type = base === undefined ? undefined : scraped.families.get(base);
  return type === "histogram" || type === "summary" ? base : undefined;
}

const panelsWithQueries = dashboard.panels.filter((candidate) => candidate.type !== "row");

describe("the Grafana dashboard", () => {
  let api: TestService;
  let scraped: Scrape;
  beforeAll(async () => {
    api = await startTestService("pglite");
    scraped = await scrape(api);
  });
  afterAll(() => api.stop());

  it("reads metric names out of PromQL, and only those", () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=~"$job",status=~"5.."}[$__rate_interval]))) ' +
          "/ on (job) group_left(instance) sum without (outcome) (increase(no_such_total[5m] offset 1h)) > bool 1e3 and settlements_mismatched",
      ),
    ).toEqual(["http_request_duration_seconds_bucket", "no_such_total", "settlements_mismatched"]);
  });

  it("reads metric names out of variable queries, and only those", () => {
    expect(metricNamesInVariableQuery('label_values(transactions_total{job=~"$job"}, job)')).toEqual(["transactions_total"]);
    expect(metricNamesInVariableQuery("label_values(job)")).toEqual([]);
    expect(metricNamesInVariableQuery("label_names()")).toEqual([]);
    expect(metricNamesInVariableQuery("query_result(sum by (job) (no_such_total))")).toEqual(["no_such_total"]);
  });

  it("relies on families that have no sample yet being listed all the same", () => {
    // Before any payment, no processor was called: the histogram has its HELP and TYPE lines only.
    expect(scraped.families.get("processor_request_duration_seconds")).toBe("histogram");
    expect(scraped.samples.some((sample) => sample.name.startsWith("processor_request_duration_seconds"))).toBe(false);
    expect(familyOf("processor_request_duration_seconds_bucket", scraped)).toBe("processor_request_duration_seconds");
    const withoutIt = parsePrometheusText("# HELP a_total a\n# TYPE a_total counter\na_total 1\n");
    expect(familyOf("processor_request_duration_seconds_bucket", withoutIt)).toBeUndefined();
  });

  it("names in every panel's queries only metrics the service exports", () => {
    const unknown = panelsWithQueries.flatMap((each) =>
      (each.targets ?? []).flatMap(({ expr }) => metricNamesIn(expr).filter((name) => !familyOf(name, scraped)).map((name) => `${each.title}: ${name}`)),
    );
    expect(unknown).toEqual([]);
  });

  it("names in every query variable only metrics the service exports", () => {
    expect(queryVariables.map((variable) => variable.name)).toContain("job");
    const unknown = queryVariables.flatMap(({ name, query }) =>
      metricNamesInVariableQuery(query).filter((metric) => !familyOf(metric, scraped)).map((metric) => `${name}: ${metric}`),
    );
    expect(unknown).toEqual([]);
    for (const { name, query } of queryVariables) expect(metricNamesInVariableQuery(query), name).not.toEqual([]);
  });

  it("shows the payment, API, store, projection, pending, settlement and webhook metrics", () => {
    const shown = new Set(
      panelsWithQueries.flatMap((each) => (each.targets ?? []).flatMap(({ expr }) => metricNamesIn(expr).map((name) => familyOf(name, scraped)))),
    );
    for (const family of [
      "transactions_total",
      "processor_request_duration_seconds",
      "pending_resolutions_total",
      "limit_declines_total",
      "idempotency_replays_total",
      "pending_transactions",
      "pending_transaction_oldest_age_seconds",
      "http_request_duration_seconds",
      "event_store_append_duration_seconds",
      "projection_lag_seconds",
      "settlements_mismatched",
      "webhook_queue_depth",
      "webhook_deliveries_total",
    ]) {
      expect(shown, family).toContain(family);
    }
  });

  it("counts sales and authorizations only in its approval rates: captures, refunds and voids ask no card for approval", () => {
    const approvalPanels = dashboard.panels.filter((each) => each.title.startsWith("Approval rate"));
    expect(approvalPanels.map((each) => each.title)).toEqual(["Approval rate", "Approval rate by processor"]);
    for (const { targets } of approvalPanels) {
      for (const { expr } of targets ?? []) {
        const selectors = [...expr.matchAll(/transactions_total\{([^}]*)\}/g)].map((match) => match[1]);
        expect(selectors.length, expr).toBeGreaterThan(0);
        for (const selector of selectors) expect(selector, expr).toContain('type=~"sale|authorization"');
      }
    }
  });

  it("shows 5xx answers from a counter that starts at 0, so that a lone one shows", () => {
    const serverErrors = dashboard.panels.find((each) => each.title === "5xx answers");
    for (const { expr } of serverErrors?.targets ?? []) expect(metricNamesIn(expr), expr).toEqual(expect.arrayContaining(["http_responses_total"]));
    expect(serverErrors?.targets?.length).toBe(2);
  });

  it("queries the Prometheus data source chosen in its variable, never a fixed UID", () => {
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: "datasource", type: "datasource", query: "prometheus" }));
    for (const each of panelsWithQueries) {
      expect(each.datasource, each.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      expect(each.targets?.length, each.title).toBeGreaterThan(0);
    }
    expect(new Set(dashboard.panels.map((each) => each.id)).size).toBe(dashboard.panels.length);
  });
});
