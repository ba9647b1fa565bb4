import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics, negotiatedFormat } from "../../src/api/metrics.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { parsePrometheusText } from "../ops/prometheus-text.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";
const databaseGauges = [
  "projection_lag_seconds",
  "projection_lag_positions",
  "pending_transactions",
  "pending_transaction_oldest_age_seconds",
  "settlements_mismatched",
  "webhook_queue_depth",
  "webhook_oldest_pending_age_seconds",
  "database_gauges_age_seconds",
];

describe("the database gauges of /metrics", () => {
  it("are read by a refresh, never by a scrape", async () => {
    const reads = { lags: 0, pending: 0, mismatched: 0, queue: 0 };
    const metrics = createMetrics({
      measureLags: async () => {
        reads.lags += 1;
        return [{ projection: "transactions", headPosition: 9n, projectedPosition: 7n, positionsBehind: 2n, secondsBehind: 1.5 }];
      },
      countPending: async () => {
        reads.pending += 1;
        return { byAge: { "<1m": 3, "1m-10m": 0, "10m-1h": 0, ">=1h": 1 }, oldestSeconds: 4000 };
      },
      countMismatchedSettlements: async () => {
        reads.mismatched += 1;
        return 2;
      },
      measureWebhookQueue: async () => {
        reads.queue += 1;
        return { pending: 5, oldestSeconds: 12 };
      },
    });
    for (let scrape = 0; scrape < 10; scrape += 1) await metrics.expose("prometheus");
    expect(reads).toEqual({ lags: 0, pending: 0, mismatched: 0, queue: 0 });

    await metrics.refreshGauges();
    expect(reads).toEqual({ lags: 1, pending: 1, mismatched: 1, queue: 1 });
    const values = Object.fromEntries(
      parsePrometheusText(await metrics.expose("prometheus"))
        .samples.filter(({ name }) => databaseGauges.includes(name))
        .map(({ name, labels, value }) => [`${name}${JSON.stringify(labels)}`, value]),
    );
    expect(values).toEqual({
      'projection_lag_seconds{"projection":"transactions"}': 1.5,
      'projection_lag_positions{"projection":"transactions"}': 2,
      'pending_transactions{"age":"<1m"}': 3,
      'pending_transactions{"age":"1m-10m"}': 0,
      'pending_transactions{"age":"10m-1h"}': 0,
      'pending_transactions{"age":">=1h"}': 1,
      "pending_transaction_oldest_age_seconds{}": 4000,
      "settlements_mismatched{}": 2,
      "webhook_queue_depth{}": 5,
      "webhook_oldest_pending_age_seconds{}": 12,
      "database_gauges_age_seconds{}": expect.any(Number),
    });
    expect(values["database_gauges_age_seconds{}"]).toBeLessThan(5);
  });
});

/** A scrape without its values: the `# HELP` and `# TYPE` lines and each sample's name and labels. */
const shapeOf = (text: string) => text.split("\n").map((line) => (line.startsWith("#") ? line : line.replace(/ \S+$/, "")));

const noDatabase = {
  measureLags: async () => [],
  countPending: async () => ({ byAge: { "<1m": 0, "1m-10m": 0, "10m-1h": 0, ">=1h": 0 }, oldestSeconds: 0 }),
  countMismatchedSettlements: async () => 0,
  measureWebhookQueue: async () => ({ pending: 0, oldestSeconds: 0 }),
};

describe("the formats of /metrics", () => {
  it("is OpenMetrics only to a scraper that prefers it (higher q, or named first at the same q)", () => {
    // Prometheus's default scrape protocols.
    expect(negotiatedFormat("application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2")).toBe("openmetrics");
    expect(negotiatedFormat("application/openmetrics-text")).toBe("openmetrics");
    expect(negotiatedFormat("Application/OpenMetrics-Text; version=1.0.0")).toBe("openmetrics");
    expect(negotiatedFormat(undefined)).toBe("prometheus");
    expect(negotiatedFormat("*/*")).toBe("prometheus");
    expect(negotiatedFormat("text/plain;version=0.0.4")).toBe("prometheus");
    expect(negotiatedFormat("text/plain;q=0.9,application/openmetrics-text;q=0.5")).toBe("prometheus");
    expect(negotiatedFormat("application/openmetrics-text;q=0")).toBe("prometheus");
    expect(negotiatedFormat("application/openmetrics-text;q=0.5,text/plain;q=0.5")).toBe("openmetrics");
    expect(negotiatedFormat("text/plain;q=0.5,application/openmetrics-text;q=0.5")).toBe("prometheus");
    expect(negotiatedFormat("application/openmetrics-text;version=0.0.1")).toBe("prometheus");
  });

  it("renders the Prometheus text the same after an OpenMetrics render as before it (counters keep _total)", async () => {
    const metrics = createMetrics(noDatabase);
    metrics.countTransaction({ type: "sale", processor: "processor_a", status: "approved" });
    const before = await metrics.expose("prometheus");
    const openMetrics = await metrics.expose("openmetrics");
    expect(openMetrics).toContain("# TYPE transactions counter");
    expect(openMetrics).toMatch(/^transactions_total\{type="sale",processor="processor_a",outcome="approved"\} 1$/m);
    expect(openMetrics.endsWith("# EOF\n")).toBe(true);
    const after = await metrics.expose("prometheus");
    expect(shapeOf(after)).toEqual(shapeOf(before));
    expect(after).toMatch(/^transactions_total\{type="sale",processor="processor_a",outcome="approved"\} 1$/m);
    // Renders asked for at once do not mix their formats.
    const [prometheus, open] = await Promise.all([metrics.expose("prometheus"), metrics.expose("openmetrics")]);
    expect(shapeOf(prometheus)).toEqual(shapeOf(before));
    expect(open).toContain("# TYPE transactions counter");
  });
});

for (const target of testDatabaseTargets()) {
  describe(`GET /metrics with METRICS_TOKEN (${target})`, { timeout: 60_000 }, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target, { METRICS_TOKEN });
    });
    afterAll(() => api.stop());

    it("answers only the bearer of the token", async () => {
      const refused = [
        await api.request("GET", "/metrics", { key: null }),
        await api.request("GET", "/metrics", { key: `${METRICS_TOKEN}x` }),
        await api.request("GET", "/metrics", { key: METRICS_TOKEN.slice(0, -1) }),
        // The admin key is not the metrics token.
        await api.request("GET", "/metrics"),
        await api.request("GET", "/metrics", { key: null, headers: { authorization: `Basic ${METRICS_TOKEN}` } }),
      ];
      for (const response of refused) {
        expect(response.status).toBe(401);
        expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ status: 401, code: "invalid_credentials" });
        expect(response.text).not.toContain("transactions_total");
      }
      const scraped = await api.request("GET", "/metrics", { key: METRICS_TOKEN });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(scraped.text).toMatch(/^transactions_total\{/m);
      expect(scraped.text).toMatch(/^projection_lag_seconds\{projection="transactions"\} /m);
      expect(api.logs()).not.toContain(METRICS_TOKEN);
    });

    it("answers OpenMetrics to a scraper that asks for it; without tracing, its histograms carry no exemplar", async () => {
      const scraped = await api.request("GET", "/metrics", { key: METRICS_TOKEN, headers: { accept: "application/openmetrics-text; version=1.0.0" } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get("content-type")).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
      expect(scraped.text).toMatch(/^http_request_duration_seconds_bucket\{/m);
      expect(scraped.text).not.toMatch(/ # \{/);
      expect(scraped.text.endsWith("# EOF\n")).toBe(true);
    });

    it("leaves health and readiness open", async () => {
      expect((await api.request("GET", "/health/live", { key: null })).body).toEqual({ status: "ok" });
      expect((await api.request("GET", "/health/ready", { key: null })).body).toMatchObject({ status: "ready" });
    });
  });
}

describe("http_responses_total", () => {
  it("counts answers by status class, every class from 0, so that a lone 5xx is an increase a rate sees", async () => {
    const metrics = createMetrics({
      measureLags: async () => [],
      countPending: async () => ({ byAge: { "<1m": 0, "1m-10m": 0, "10m-1h": 0, ">=1h": 0 }, oldestSeconds: 0 }),
      countMismatchedSettlements: async () => 0,
      measureWebhookQueue: async () => ({ pending: 0, oldestSeconds: 0 }),
    });
    const byClass = async () =>
      Object.fromEntries(
        parsePrometheusText(await metrics.expose("prometheus"))
          .samples.filter(({ name }) => name === "http_responses_total")
          .map(({ labels, value }) => [labels.class, value]),
      );
    expect(await byClass()).toEqual({ "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 });
    metrics.observeRequest({ method: "POST", route: "/v1/transactions/sale", status: "504" }, 10);
    metrics.observeRequest({ method: "GET", route: "/v1/clients/:clientId", status: "200" }, 0.01);
    expect(await byClass()).toEqual({ "1xx": 0, "2xx": 1, "3xx": 0, "4xx": 0, "5xx": 1 });
  });
});
