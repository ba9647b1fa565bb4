import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openEventStore } from "../../src/eventstore/open.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ProcessorRelay, startProcessorRelay } from "../support/processor-relay.ts";
import { type ApiResponse, everyProcessorAt, startTestService, TEST_ADMIN_KEY, type TestService, testSecrets } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, subjectOf, typeOf, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./otlp-receiver.ts";

// Tracing end to end: the real service exports to a real OTLP/HTTP receiver in this process; the
// spans and links of a sale, of a capture the resolver resolved, and of a webhook delivery.

const CARD_NUMBER = "4242424242424242";
const CVC = "731";
const card = { number: CARD_NUMBER, expMonth: 12, expYear: 2030, cvc: CVC };
const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const SERVER = 2;
/** What Prometheus asks a target for by default: OpenMetrics first. */
const PROMETHEUS_ACCEPT =
  "application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2";
/** A histogram bucket's line with its exemplar: `name{labels} count # {trace_id="…",span_id="…"} value timestamp`. */
const exemplarLine = /^(\w+)_bucket\{(.*)\} \d+ # \{trace_id="([0-9a-f]{32})",span_id="([0-9a-f]{16})"\} \S+ \S+$/;

for (const target of testDatabaseTargets()) {
  describe(`tracing on ${target}`, { timeout: 60_000 }, () => {
    let otlp: OtlpReceiver;
    let simulator: Simulator;
    let relay: ProcessorRelay;
    let webhooks: WebhookReceiver;
    let api: TestService;
    const toProcessor: { method: string; path: string; traceparent: string | undefined }[] = [];
    let dropNextPostAnswer = false;
    const caller = { traceId: hex(16), spanId: hex(8) };
    const secrets: string[] = [];
    let clientId: string;
    let sale: { id: string };
    let authorization: { id: string };
    let capture: { id: string };
    let stopped = false;
    let logs: string;
    let spans: ReceivedSpan[];
    let openMetrics: ApiResponse;
    let prometheusText: ApiResponse;

    const trace = (traceId: string) => spans.filter((span) => span.traceId === traceId);
    const named = (name: string, within = spans) => within.filter((span) => span.name === name);
    /** The request that appended to this payment's stream first. */
    const serverSpanOf = (paymentId: string, route: string) => {
      const span = spans.find(
        (candidate) =>
          candidate.kind === SERVER &&
          candidate.attributes["http.route"] === route &&
          named("append", trace(candidate.traceId)).some((append) => append.attributes["ledger.stream"] === `payment-${paymentId}`),
      );
      if (!span) throw new Error(`no ${route} span appended to payment-${paymentId}`);
      return span;
    };

    beforeAll(async () => {
      otlp = await startOtlpReceiver();
      simulator = await startSimulator();
      relay = await startProcessorRelay(simulator.url, async ({ method, path, headers }) => {
        toProcessor.push({ method, path, traceparent: typeof headers.traceparent === "string" ? headers.traceparent : undefined });
        if (method === "POST" && dropNextPostAnswer) {
          dropNextPostAnswer = false;
          throw new Error("the answer is lost");
        }
      });
      webhooks = await startWebhookReceiver(200);
      api = await startTestService(target, {
        ...everyProcessorAt(relay.url),
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_SERVICE_NAME: "ledger-under-test",
        ...loopbackWebhookEnvironment({ dispatchIntervalMs: 50 }),
      });
      const client = await api.createClient("Traced");
      clientId = client.clientId;
      secrets.push(client.key, TEST_ADMIN_KEY, ...Object.values(testSecrets));
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configured.status, configured.text).toBe(201);
      const limits = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, { body: { limits: [{ currency: "USD", dailyAmount: 1_000_000 }] } });
      expect(limits.status, limits.text).toBe(200);
      const endpoint = await api.request("POST", "/v1/webhook-endpoints", {
        key: client.key,
        body: { url: `${webhooks.url}/hooks`, events: ["transaction.approved"] },
      });
      expect(endpoint.status, endpoint.text).toBe(201);
      secrets.push(endpoint.body.secret);

      const payment = { processor: "processor_a", currency: "USD", userId: "user_1" };
      const sold = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { ...payment, amount: 500, card },
        headers: { traceparent: `00-${caller.traceId}-${caller.spanId}-01`, "idempotency-key": `sale-${hex(4)}` },
      });
      expect(sold.status, sold.text).toBe(201);
      sale = sold.body;

      const authorized = await api.request("POST", "/v1/transactions/authorization", { key: client.key, body: { ...payment, amount: 1000, card } });
      expect(authorized.status, authorized.text).toBe(201);
      authorization = authorized.body;
      dropNextPostAnswer = true;
      const captured = await api.request("POST", "/v1/transactions/capture", { key: client.key, body: { transactionId: authorized.body.id, amount: 600 } });
      expect(captured.body.transaction?.status, captured.text).toBe("pending");
      capture = captured.body.transaction;
      await vi.waitFor(
        async () => expect((await api.request("GET", `/v1/transactions/${capture.id}`, { key: client.key })).body.status).toBe("approved"),
        { timeout: 20_000, interval: 100 },
      );
      await webhooks.waitFor((requests) => requests.some((request) => subjectOf(request) === sale.id && typeOf(request) === "transaction.approved"));

      expect((await api.request("GET", "/health/ready")).status).toBe(200);
      openMetrics = await api.request("GET", "/metrics", { headers: { accept: PROMETHEUS_ACCEPT } });
      prometheusText = await api.request("GET", "/metrics");
      logs = api.logs();
      // Stopping exports what is still buffered.
      await api.stop();
      stopped = true;
      spans = otlp.spans();
    });

    afterAll(async () => {
      if (!stopped) await api?.stop();
      await webhooks?.close();
      await relay?.close();
      await simulator?.close();
      await otlp?.close();
    });

    it("makes a sale one trace under the caller's traceparent: claim, limit, decision, appends, processor call", () => {
      const request = serverSpanOf(sale.id, "/v1/transactions/sale");
      expect(request).toMatchObject({ traceId: caller.traceId, parentSpanId: caller.spanId, name: "POST /v1/transactions/sale" });
      expect(request.attributes).toMatchObject({ "http.route": "/v1/transactions/sale", "http.response.status_code": 201, "ledger.client_id": clientId });
      expect(request.resource["service.name"]).toBe("ledger-under-test");
      const story = trace(caller.traceId);
      expect(named("idempotency claim", story)[0]?.attributes["ledger.idempotency"]).toBe("claimed");
      expect(named("limit reservation", story)[0]?.attributes["ledger.limit"]).toBe("reserved");
      expect(named("decide InitiateTransaction", story)[0]?.attributes).toMatchObject({ "ledger.decision": "accepted", "ledger.stream": `payment-${sale.id}` });
      expect(named("decide RecordOutcome", story)[0]?.attributes["ledger.decision"]).toBe("accepted");
      const appends = named("append", story).filter((span) => span.attributes["ledger.stream"] === `payment-${sale.id}`);
      expect(appends.map((span) => span.attributes["ledger.expected_revision"])).toEqual(["no_stream", "0"]);
      expect(appends[0]?.attributes["ledger.event_types"]).toEqual(["TransactionInitiated.v1"]);
      const call = named("processor sale", story)[0];
      expect(call?.attributes).toMatchObject({ "ledger.processor": "processor_a", "ledger.outcome": "approved", "ledger.response_code": "00", "ledger.transaction_id": sale.id });
      // Every span of the request descends from the request's.
      const ids = new Set(story.map((span) => span.spanId));
      for (const span of story) if (span !== request) expect(ids.has(span.parentSpanId ?? "")).toBe(true);
    });

    it("does not trace health probes and metric scrapes", () => {
      const routes = spans.filter((span) => span.kind === SERVER).map((span) => String(span.attributes["http.route"]));
      expect(routes).toContain("/v1/transactions/sale");
      expect(routes.filter((route) => route.startsWith("/health") || route.startsWith("/metrics"))).toEqual([]);
    });

    it("sends the traceparent to the processor: the processor's HTTP span is its parent", () => {
      const http = trace(caller.traceId).filter((span) => span.name === "POST" && span.attributes["http.response.status_code"] === 200);
      expect(http).toHaveLength(1);
      expect(toProcessor.map((call) => call.traceparent)).toContain(`00-${caller.traceId}-${http[0]!.spanId}-01`);
    });

    it("shows a capture without an answer as unknown, and the resolver's inquiry as a trace linked to it", () => {
      const request = serverSpanOf(authorization.id, "/v1/transactions/capture");
      const call = named("processor capture", trace(request.traceId))[0];
      expect(call?.attributes["ledger.outcome"]).toBe("unknown");
      expect(call?.status.code).toBe(2);
      const lost = trace(request.traceId).find((span) => span.parentSpanId === call?.spanId);
      expect(lost?.attributes).toMatchObject({ "ledger.http_result": "no_answer", "ledger.timeout": false });
      const resolved = named("resolve inquire").find((span) => span.attributes["ledger.transaction_id"] === capture.id && span.attributes["ledger.resolution"] === "approved");
      expect(resolved, "the resolver's span").toBeDefined();
      expect(resolved!.parentSpanId).toBeUndefined();
      expect(resolved!.links.map((link) => link.traceId)).toContain(request.traceId);
      const inquiry = named("processor inquiry", trace(resolved!.traceId))[0];
      expect(inquiry?.attributes).toMatchObject({ "ledger.outcome": "approved", "ledger.transaction_id": capture.id });
      const recorded = named("append", trace(resolved!.traceId)).find((span) => span.attributes["ledger.stream"] === `payment-${authorization.id}`);
      expect(recorded?.attributes["ledger.event_types"]).toContain("TransactionApproved.v1");
    });

    it("links each projection batch to the appends it applies", () => {
      const batches = named("project transactions").filter((span) => span.links.some((link) => link.traceId === caller.traceId));
      expect(batches.length).toBeGreaterThan(0);
      expect(batches[0]!.parentSpanId).toBeUndefined();
    });

    it("delivers the webhook in a trace linked to the sale's, and sends its traceparent to the endpoint", () => {
      const delivered = webhooks.requests.find((request) => subjectOf(request) === sale.id && typeOf(request) === "transaction.approved")!;
      const delivery = named("webhook delivery").find((span) => span.attributes["ledger.message_id"] === delivered.headers["webhook-id"]);
      expect(delivery?.attributes).toMatchObject({ "ledger.delivery": "delivered", "http.response.status_code": 200, "server.address": "127.0.0.1" });
      expect(delivery!.links.map((link) => link.traceId)).toContain(caller.traceId);
      expect(delivered.headers.traceparent).toBe(`00-${delivery!.traceId}-${delivery!.spanId}-01`);
    });

    it("gives the latency histograms exemplars in OpenMetrics: the sale's bucket names the sale's request span", () => {
      expect(openMetrics.status).toBe(200);
      expect(openMetrics.headers.get("content-type")).toBe("application/openmetrics-text; version=1.0.0; charset=utf-8");
      expect(openMetrics.text.endsWith("# EOF\n")).toBe(true);
      const exemplars = openMetrics.text
        .split("\n")
        .map((line) => exemplarLine.exec(line))
        .filter((match) => match !== null)
        .map(([, name = "", labels = "", traceId = "", spanId = ""]) => ({ name, labels, traceId, spanId }));
      const request = serverSpanOf(sale.id, "/v1/transactions/sale");
      const ofSale = exemplars.filter(({ name, labels }) => name === "http_request_duration_seconds" && labels.includes('route="/v1/transactions/sale"'));
      expect(ofSale).toEqual([expect.objectContaining({ traceId: caller.traceId, spanId: request.spanId })]);
      // Every exemplar leads to a span that was exported, the span the latency was measured in.
      const exported = new Map(spans.map((span) => [span.spanId, span]));
      for (const { traceId, spanId } of exemplars) expect(exported.get(spanId)?.traceId).toBe(traceId);
      const spanNamesOf = (metric: string) => exemplars.filter(({ name }) => name === metric).map(({ spanId }) => exported.get(spanId)?.name);
      expect(new Set(spanNamesOf("event_store_append_duration_seconds"))).toEqual(new Set(["append"]));
      // A bucket keeps its last exemplar: the sale's, the authorization's or the inquiry's call.
      const processorCalls = spanNamesOf("processor_request_duration_seconds");
      expect(processorCalls.length).toBeGreaterThan(0);
      for (const name of processorCalls) expect(name).toMatch(/^processor (sale|authorization|capture|inquiry)$/);
      expect(new Set(spanNamesOf("webhook_attempt_duration_seconds"))).toEqual(new Set(["webhook delivery"]));
    });

    it("answers other scrapers in the Prometheus text format, without exemplars, counters named as before", () => {
      expect(prometheusText.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      expect(prometheusText.text).not.toContain("# EOF");
      expect(prometheusText.text).not.toMatch(/ # \{/);
      // Scraped after the OpenMetrics answer, which names the family `transactions` and its samples `transactions_total`.
      expect(prometheusText.text).toContain("# TYPE transactions_total counter");
      expect(prometheusText.text).toMatch(/^transactions_total\{type="sale",processor="processor_a",outcome="approved"\} 1$/m);
    });

    it("writes trace_id and span_id on the log lines of a traced request", () => {
      const line = logs
        .split("\n")
        .filter(Boolean)
        .map((text) => JSON.parse(text) as Record<string, unknown>)
        .find((entry) => entry.msg === "request completed" && entry.trace_id === caller.traceId);
      expect(line).toMatchObject({ route: "/v1/transactions/sale", span_id: serverSpanOf(sale.id, "/v1/transactions/sale").spanId });
    });

    it("never exports a card number, a CVC, a key or a secret", () => {
      const exported = otlp.bodies().join("\n");
      expect(exported.length).toBeGreaterThan(0);
      expect(exported).not.toContain(CARD_NUMBER);
      for (const secret of secrets) expect(exported).not.toContain(secret);
      const attributes = spans.flatMap((span) => Object.entries(span.attributes));
      expect(attributes.filter(([key]) => /card|cvc|secret|password|credential|key$/i.test(key))).toEqual([]);
      expect(attributes.filter(([, value]) => [value].flat().map(String).includes(CVC))).toEqual([]);
    });
  });
}

for (const target of testDatabaseTargets()) {
  describe(`tracing off (the default) on ${target}`, { timeout: 60_000 }, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(async () => {
      await api?.stop();
    });

    it("records no trace context and logs no trace ids, whatever the caller sends", async () => {
      const client = await api.createClient("Untraced");
      await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      const sold = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", currency: "USD", userId: "user_1", amount: 500, card },
        headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` },
      });
      expect(sold.status, sold.text).toBe(201);
      const events = await openEventStore(undefined, api.database.db).readStream(`payment-${sold.body.id}`);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.metadata).not.toHaveProperty("traceparent");
      expect(api.logs()).toContain("request completed");
      expect(api.logs()).not.toContain("trace_id");
    });
  });
}

for (const target of testDatabaseTargets()) {
  describe(`tracing to a collector that cannot be reached, on ${target}`, { timeout: 60_000 }, () => {
    it("serves as before and logs that spans were dropped, once for the whole outage", async () => {
      const gone = await startOtlpReceiver();
      await gone.close();
      const api = await startTestService(target, { OTEL_EXPORTER_OTLP_ENDPOINT: gone.url });
      try {
        for (let attempt = 0; attempt < 3; attempt += 1) expect((await api.request("GET", "/v1/clients")).status).toBe(200);
      } finally {
        await api.stop();
      }
      const lines = api.logs().split("\n").filter((line) => line.includes('"msg":"tracing: '));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, tracesUrl: `${gone.url}/v1/traces` });
      expect(api.logs()).toContain(`"tracing":"${gone.url}, parentbased_always_on"`);
    });
  });
}
