import { afterEach, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { type FakeAnswer, type FakeProcessor, startFakeProcessor } from "../support/fake-processor.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { everyProcessorAt, startTestService, type TestService } from "../support/service.ts";
import { nonZero, scrape } from "../ops/prometheus-text.ts";

const eventually = { timeout: 30_000, interval: 50 };
const cards = {
  declined: "4000000000000002",
  processorError: "4000000000000119",
  timeout: "4000000000000408",
};

/** A client with a key and a host configuration on each of `processors`. */
async function clientOn(api: TestService, processors: readonly ("processor_a" | "processor_b")[]) {
  const client = await api.createClient();
  for (const processor of processors) {
    const configured = await api.request("POST", `/v1/host-configurations/${processor}`, {
      body: { ...validBodies[processor], clientId: client.clientId },
    });
    expect(configured.status).toBe(201);
  }
  return client;
}

for (const target of testDatabaseTargets()) {
  describe(`payment metrics (${target})`, { timeout: 90_000 }, () => {
    let api: TestService | undefined;
    let processor: FakeProcessor | undefined;
    afterEach(async () => {
      await api?.stop();
      await processor?.close();
      api = processor = undefined;
    });

    /** The service on a fake processor_a scripted by the test, after one sale the processor left unknown (504). */
    async function startOnFakeProcessor(
      script: { submit: (operation: string) => FakeAnswer; inquiry: (nth: number) => FakeAnswer },
      environment: Record<string, string>,
    ) {
      const fake = (processor = await startFakeProcessor(script));
      const service = (api = await startTestService(target, { ...everyProcessorAt(fake.url), ...environment }));
      const client = await clientOn(service, ["processor_a"]);
      const sale = await service.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 1200, currency: "USD", userId: "user_1", card: approvedCard },
      });
      expect(sale.status).toBe(504);
      return { service, processor: fake };
    }

    it("counts each transaction's first outcome, processor calls, resolutions, limit declines and idempotent replays", async () => {
      // Long enough for a duplicate request to arrive while the timeout card's call still waits.
      const service = (api = await startTestService(target, { PROCESSOR_TIMEOUT_MS: "4000" }));
      const client = await clientOn(service, ["processor_a", "processor_b"]);
      const limited = await service.request("PUT", `/v1/clients/${client.clientId}/limits`, {
        body: { limits: [{ currency: "USD", maxAmountPerTransaction: 5000 }] },
      });
      expect(limited.status).toBe(200);
      const pay = (path: string, body: Record<string, unknown>, idempotencyKey?: string) =>
        service.request("POST", `/v1/transactions/${path}`, {
          key: client.key,
          body,
          headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
        });
      const sale = (processor: string, number: string, amount = 1000) => ({
        processor,
        amount,
        currency: "USD",
        userId: "user_1",
        card: { ...approvedCard, number },
      });

      const approved = sale("processor_a", approvedCard.number);
      expect((await pay("sale", approved, "order-1")).status).toBe(201);
      const replayed = await pay("sale", approved, "order-1");
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect((await pay("sale", { ...approved, amount: 999 }, "order-1")).status).toBe(422);
      const firstClient = await service.request("POST", "/v1/clients", { body: { name: "Initech" }, headers: { "idempotency-key": "initech" } });
      const storedReplay = await service.request("POST", "/v1/clients", { body: { name: "Initech" }, headers: { "idempotency-key": "initech" } });
      expect([firstClient.status, storedReplay.status, storedReplay.headers.get("idempotent-replayed")]).toEqual([201, 201, "true"]);

      expect((await pay("sale", sale("processor_b", cards.declined))).status).toBe(402);
      expect((await pay("sale", sale("processor_a", cards.processorError))).status).toBe(502);
      const overLimit = await pay("sale", sale("processor_a", approvedCard.number, 6000));
      expect([overLimit.status, overLimit.body.code]).toEqual([402, "limit_exceeded"]);
      const authorization = await pay("authorization", sale("processor_a", approvedCard.number));
      expect(authorization.status).toBe(201);
      expect((await pay("capture", { transactionId: authorization.body.id })).status).toBe(201);

      // While the timeout card's call waits for the processor, the same request again is 409.
      const timingOut = pay("sale", sale("processor_a", cards.timeout), "order-2");
      await vi.waitFor(async () => {
        const pending = await service.request("GET", "/v1/transactions?status=pending", { key: client.key });
        expect(pending.body.data).toHaveLength(1);
      }, eventually);
      expect((await pay("sale", sale("processor_a", cards.timeout), "order-2")).status).toBe(409);
      expect((await timingOut).status).toBe(504);
      await vi.waitFor(async () => expect(nonZero(await scrape(service), "pending_resolutions_total", ["outcome"])).toEqual({ approved: 1 }), eventually);

      const scraped = await scrape(service);
      expect(nonZero(scraped, "transactions_total", ["type", "processor", "outcome"])).toEqual({
        "sale/processor_a/approved": 1,
        "sale/processor_a/failed": 1,
        "sale/processor_a/pending": 1,
        "sale/processor_a/declined": 1,
        "sale/processor_b/declined": 1,
        "authorization/processor_a/approved": 1,
        "capture/processor_a/approved": 1,
      });
      expect(nonZero(scraped, "limit_declines_total", ["limit"])).toEqual({ maxAmountPerTransaction: 1 });
      expect(nonZero(scraped, "idempotency_replays_total", ["outcome"])).toEqual({ replayed: 2, in_progress: 1, key_reused: 1 });
      // Four submits and the resolver's inquiry answered on processor_a; the timeout card's call did not.
      expect(nonZero(scraped, "processor_request_duration_seconds_count", ["processor", "outcome"])).toEqual({
        "processor_a/answered": 5,
        "processor_a/timeout": 1,
        "processor_b/answered": 1,
      });
      const timedOut = scraped.samples.find(
        (sample) => sample.name === "processor_request_duration_seconds_sum" && sample.labels.outcome === "timeout",
      );
      expect(timedOut?.value).toBeGreaterThanOrEqual(3.9);
    });

    it("counts every ask the processor leaves unanswered, then the reversal of what stayed unknown", async () => {
      const { service, processor } = await startOnFakeProcessor(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry: () => "unknown" },
        // The resolver first asks 2 × PROCESSOR_TIMEOUT_MS after the intent: well before the reversal.
        { PROCESSOR_TIMEOUT_MS: "500", PENDING_REVERSAL_AFTER_SECONDS: "3" },
      );
      await vi.waitFor(async () => expect(nonZero(await scrape(service), "pending_resolutions_total", ["outcome"])).toHaveProperty("reversed", 1), eventually);
      const scraped = await scrape(service);
      // Every inquiry but the last, after which the reversal was due, left it pending; so did every
      // void but the last, when its answer came after PROCESSOR_TIMEOUT_MS (a loaded machine's 500 ms).
      const inquiries = processor.calls.filter((call) => call.kind === "inquiry").length;
      const voids = processor.calls.filter((call) => call.kind === "submit" && call.operation === "void").length;
      expect(inquiries).toBeGreaterThan(1);
      expect(voids).toBeGreaterThanOrEqual(1);
      expect(nonZero(scraped, "pending_resolutions_total", ["outcome"])).toEqual({ still_pending: inquiries - 1 + (voids - 1), reversed: 1 });
      expect(nonZero(scraped, "transactions_total", ["type", "processor", "outcome"])).toEqual({ "sale/processor_a/pending": 1 });
      // A gateway's 504 is an answer: every call, the sale, the inquiries and the voids, was timed,
      // as answered or as a timeout (a call answered after the connector gave up on it: every void
      // but the last, and on a loaded machine an inquiry too).
      const { "processor_a/answered": answered = 0, "processor_a/timeout": timeouts = 0, ...others } = nonZero(
        scraped,
        "processor_request_duration_seconds_count",
        ["processor", "outcome"],
      );
      expect(others).toEqual({});
      expect(answered + timeouts).toBe(processor.calls.length);
      expect(timeouts).toBeGreaterThanOrEqual(voids - 1);
    });

    it("counts a failure on not found, the processor's late approval, and its reversal", async () => {
      const { service } = await startOnFakeProcessor(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry: (nth) => (nth === 1 ? "not_found" : "approved") },
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0", PENDING_REVERSAL_AFTER_SECONDS: "60" },
      );
      await vi.waitFor(async () => expect(nonZero(await scrape(service), "pending_resolutions_total", ["outcome"])).toHaveProperty("reversed", 1), eventually);
      expect(nonZero(await scrape(service), "pending_resolutions_total", ["outcome"])).toEqual({ failed: 1, approved_late: 1, reversed: 1 });
    });
  });
}
