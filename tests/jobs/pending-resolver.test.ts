import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRegistries } from "../../src/commands/context.ts";
import { payments } from "../../src/commands/streams.ts";
import { safeCard } from "../../src/domain/cards.ts";
import { openEventStore } from "../../src/eventstore/open.ts";
import { newId } from "../../src/ids.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type FakeAnswer, type FakeProcessor, startFakeProcessor } from "../support/fake-processor.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { Secret } from "../../src/domain/secret.ts";
import { everyProcessorAt, startTestService, type TestService } from "../support/service.ts";
import { clockFromNoon } from "../support/clock.ts";

const eventually = { timeout: 30_000, interval: 50 };
/** The service's clock: the daily limits here reset at midnight UTC. */
const clock = clockFromNoon();

for (const target of testDatabaseTargets()) {
  describe(`the pending resolver (${target})`, { timeout: 90_000 }, () => {
    let api: TestService | undefined;
    let processor: FakeProcessor | undefined;
    afterEach(async () => {
      await api?.stop();
      await processor?.close();
      api = processor = undefined;
    });

    /** The service on a fake processor_a scripted by the test, a client with a key and a 5000 USD daily limit. */
    async function start(
      script: { submit: (operation: string) => FakeAnswer; inquiry: (nth: number, transactionId: string) => FakeAnswer },
      environment: Record<string, string> = {},
    ) {
      processor = await startFakeProcessor(script);
      api = await startTestService(target, { ...everyProcessorAt(processor.url), PENDING_RESOLVER_INTERVAL_MS: "50", ...environment }, { now: clock.now });
      const client = await api.createClient();
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configured.status).toBe(201);
      const limits = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
        body: { limits: [{ currency: "USD", dailyAmount: 5000 }] },
      });
      expect(limits.status).toBe(200);
      return { service: api, processor, client, hostConfigurationId: String(configured.body.id) };
    }

    const sell = (service: TestService, key: string) =>
      service.request("POST", "/v1/transactions/sale", {
        key,
        body: { processor: "processor_a", amount: 1200, currency: "USD", userId: "user_1", card: approvedCard },
      });

    const statusOf = async (service: TestService, key: string, id: string) =>
      (await service.request("GET", `/v1/transactions/${id}`, { key })).body.status;

    const eventTypes = async (service: TestService, id: string) =>
      ((await service.request("GET", `/v1/transactions/${id}/events`)).body.events as { type: string; data: Record<string, unknown> }[]);

    const usedToday = async (service: TestService, clientId: string) =>
      (await service.request("GET", `/v1/clients/${clientId}`)).body.limits[0].today.usedAmount;

    it("does not fail a transaction on a not-found before the processor's own timeout: the later approval counts", async () => {
      const { service, processor, client } = await start({ submit: () => "unknown", inquiry: (nth) => (nth <= 3 ? "not_found" : "approved") });
      const sale = await sell(service, client.key);
      expect(sale.status).toBe(504);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect(await statusOf(service, client.key, id)).toBe("approved"), eventually);
      expect(processor.calls.filter((call) => call.kind === "inquiry" && call.transactionId === id).length).toBeGreaterThanOrEqual(4);
      expect(await usedToday(service, client.clientId)).toBe(1200);
    });

    it("fails a transaction on a not-found once the processor's own timeout has passed, and gives the limit back", async () => {
      const { service, client } = await start(
        { submit: () => "unknown", inquiry: () => "not_found" },
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0" },
      );
      const sale = await sell(service, client.key);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect(await statusOf(service, client.key, id)).toBe("failed"), eventually);
      await vi.waitFor(async () => expect(await usedToday(service, client.clientId)).toBe(0), eventually);
    });

    it("keeps asking about a transaction failed on a not-found: an approval the processor reports later is recorded and reversed", async () => {
      // A processor whose inquiries lag behind its approvals: "not found" twice, then the truth.
      const { service, processor, client } = await start(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry: (nth) => (nth <= 2 ? "not_found" : "approved") },
        // The watch lasts this long after the failure, which comes at least twice the processor timeout (4 s) after the intent.
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0", PENDING_REVERSAL_AFTER_SECONDS: "2" },
      );
      const sale = await sell(service, client.key);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect((await eventTypes(service, id)).map((event) => event.type)).toEqual([
        "TransactionInitiated.v1",
        "TransactionFailed.v1",
        "TransactionApprovedLate.v1",
        "TransactionReversalRequested.v1",
        "TransactionReversed.v1",
      ]), eventually);
      const events = await eventTypes(service, id);
      expect(events[1]!.data).toMatchObject({ transactionId: id, reason: "not_found" });
      expect(processor.calls.filter((call) => call.operation === "void")).toEqual([
        { kind: "submit", operation: "void", transactionId: events[3]!.data.reversalId, parentId: id },
      ]);
      expect(await statusOf(service, client.key, id)).toBe("failed");
      await vi.waitFor(async () => expect(await usedToday(service, client.clientId)).toBe(0), eventually);
    });

    it("watches a failure on a not-found until the processor answers again, however long the resolver was kept from asking", async () => {
      // The processor does not find the sale when first asked, and the ledger records it failed;
      // then it cannot be reached for longer than the watch lasts; then it reports the sale approved.
      let firstAskedAt = Number.POSITIVE_INFINITY;
      const unreachableMs = 4_000;
      const inquiry = (nth: number): FakeAnswer => {
        if (nth === 1) {
          firstAskedAt = Date.now();
          return "not_found";
        }
        return Date.now() < firstAskedAt + unreachableMs ? "unknown" : "approved";
      };
      const { service, processor, client } = await start(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry },
        // First asked 2 x 2 s after the intent, when a not-found is final; the watch lasts 2 s after the failure.
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0", PENDING_REVERSAL_AFTER_SECONDS: "2" },
      );
      const sale = await sell(service, client.key);
      expect(sale.status).toBe(504);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect((await eventTypes(service, id)).map((event) => event.type)).toEqual([
        "TransactionInitiated.v1",
        "TransactionFailed.v1",
        "TransactionApprovedLate.v1",
        "TransactionReversalRequested.v1",
        "TransactionReversed.v1",
      ]), eventually);
      const events = await eventTypes(service, id);
      expect(events[1]!.data).toMatchObject({ reason: "not_found" });
      expect(processor.calls.filter((call) => call.operation === "void")).toEqual([
        { kind: "submit", operation: "void", transactionId: events[3]!.data.reversalId, parentId: id },
      ]);
      await vi.waitFor(async () => expect(await usedToday(service, client.clientId)).toBe(0), eventually);
    });

    it("ends the watch only when two answers after it agree: a processor that says \"not found\" twice, then approves, is caught", async () => {
      // Card 4000000000000424's processor: two not-founds, then the approval. The first decides the
      // failure; the resolver is then kept from asking past the watch, and the second comes after it.
      let firstAskedAt = Number.POSITIVE_INFINITY;
      let notFoundsLeft = 2;
      const inquiry = (nth: number): FakeAnswer => {
        if (nth === 1) firstAskedAt = Date.now();
        else if (Date.now() < firstAskedAt + 4_000) return "unknown";
        if (notFoundsLeft === 0) return "approved";
        notFoundsLeft -= 1;
        return "not_found";
      };
      const { service, client } = await start(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry },
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0", PENDING_REVERSAL_AFTER_SECONDS: "2" },
      );
      const sale = await sell(service, client.key);
      expect(sale.status).toBe(504);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect((await eventTypes(service, id)).map((event) => event.type)).toEqual([
        "TransactionInitiated.v1",
        "TransactionFailed.v1",
        "TransactionApprovedLate.v1",
        "TransactionReversalRequested.v1",
        "TransactionReversed.v1",
      ]), eventually);
      await vi.waitFor(async () => expect(await usedToday(service, client.clientId)).toBe(0), eventually);
    });

    it("ends the watch of a failure on a not-found with a not-found asked once the watch is over", async () => {
      const { service, processor, client } = await start(
        { submit: () => "unknown", inquiry: () => "not_found" },
        { PROCESSOR_OWN_TIMEOUT_SECONDS: "0", PENDING_REVERSAL_AFTER_SECONDS: "2" },
      );
      const sale = await sell(service, client.key);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect((await eventTypes(service, id)).map((event) => event.type)).toEqual([
        "TransactionInitiated.v1",
        "TransactionFailed.v1",
        "TransactionFailureConfirmed.v1",
      ]), eventually);
      const [, failed, confirmed] = await eventTypes(service, id);
      expect(Date.parse(String(confirmed!.data.occurredAt)) - Date.parse(String(failed!.data.occurredAt))).toBeGreaterThanOrEqual(2_000);
      // Nothing is owed any more, as operators see it: it is not asked about again.
      await vi.waitFor(async () => {
        const status = await service.request("GET", "/v1/operations/status");
        expect(status.body.resolver.owed).toEqual({ inquire: 0, reverse: 0, watch: 0 });
      }, eventually);
      const asked = processor.calls.filter((call) => call.kind === "inquiry" && call.transactionId === id).length;
      await sleep(500);
      expect(processor.calls.filter((call) => call.kind === "inquiry" && call.transactionId === id)).toHaveLength(asked);
    });

    it("never sends a call whose intent took longer than PROCESSOR_TIMEOUT_MS to record: the resolver fails it on the processor's not-found", async () => {
      // A world where every reading of the clock is 3 s after the one before: between the intent's
      // time and the call, more than the 2 s processor timeout has always passed.
      let clock = Date.parse("2026-06-10T12:00:00Z");
      processor = await startFakeProcessor({ submit: () => "approved", inquiry: () => "not_found" });
      api = await startTestService(
        target,
        { ...everyProcessorAt(processor.url), PENDING_RESOLVER_INTERVAL_MS: "50", PROCESSOR_OWN_TIMEOUT_SECONDS: "0" },
        { now: () => new Date((clock += 3_000)) },
      );
      const client = await api.createClient();
      expect((await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      })).status).toBe(201);
      const sale = await sell(api, client.key);
      expect(sale.status).toBe(504);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect(await statusOf(api!, client.key, id)).toBe("failed"), eventually);
      expect(processor.calls.filter((call) => call.kind === "submit")).toEqual([]);
      expect(api.logs()).toContain("the intent took too long to record");
    });

    it("reverses what stays unknown past PENDING_REVERSAL_AFTER_SECONDS: the void's intent first, then failed, reason reversed", async () => {
      const { service, processor, client } = await start(
        { submit: (operation) => (operation === "void" ? "approved" : "unknown"), inquiry: () => "unknown" },
        { PENDING_REVERSAL_AFTER_SECONDS: "0" },
      );
      const sale = await sell(service, client.key);
      const id = sale.body.transaction.id;
      await vi.waitFor(async () => expect(await statusOf(service, client.key, id)).toBe("failed"), eventually);
      const events = await eventTypes(service, id);
      expect(events.map((event) => event.type)).toEqual([
        "TransactionInitiated.v1",
        "TransactionReversalRequested.v1",
        "TransactionReversed.v1",
        "TransactionFailed.v1",
      ]);
      expect(events[3]!.data).toMatchObject({ transactionId: id, reason: "reversed" });
      const reversalId = events[1]!.data.reversalId;
      const voids = processor.calls.filter((call) => call.operation === "void");
      expect(voids).toEqual([{ kind: "submit", operation: "void", transactionId: reversalId, parentId: id }]);
      await vi.waitFor(async () => expect(await usedToday(service, client.clientId)).toBe(0), eventually);
    });

    it("reverses a transaction the processor approved after the ledger recorded it failed, and records both facts", async () => {
      const { service, processor, client } = await start({
        submit: (operation) => (operation === "void" ? "approved" : "refused"),
        inquiry: () => "approved",
      });
      const sale = await sell(service, client.key);
      expect(sale.status).toBe(502);
      const id = sale.body.transaction.id;
      expect(await usedToday(service, client.clientId)).toBe(0);
      // The processor's late answer, recorded as run-transaction records every answer.
      const store = openEventStore(undefined, service.database.db);
      const approval = { code: "00", message: "Approved", authorizationCode: "A1B2C3", reference: `ref-${id}` };
      const late = await payments.handle({ store, metadata: {}, registries: createRegistries(store) }, id, {
        type: "RecordOutcome",
        transactionId: id,
        outcome: { status: "approved", processorResponse: approval },
        now: clock.now().toISOString(),
      });
      expect(late).toMatchObject({ ok: true, events: [{ type: "TransactionApprovedLate.v1" }] });

      await vi.waitFor(async () => {
        const types = (await eventTypes(service, id)).map((event) => event.type);
        expect(types).toEqual([
          "TransactionInitiated.v1",
          "TransactionFailed.v1",
          "TransactionApprovedLate.v1",
          "TransactionReversalRequested.v1",
          "TransactionReversed.v1",
        ]);
      }, eventually);
      expect(processor.calls.filter((call) => call.operation === "void")).toHaveLength(1);
      expect(await statusOf(service, client.key, id)).toBe("failed");
      expect(await usedToday(service, client.clientId)).toBe(0);
    });

    it("gives every pending row its turn, past hundreds that stay unknown and one whose host configuration cannot be loaded", async () => {
      const { service, client, hostConfigurationId } = await start({
        submit: () => "unknown",
        inquiry: (_nth, transactionId) => (transactionId === awaited ? "approved" : "unknown"),
      }, { PENDING_REVERSAL_AFTER_SECONDS: String(100 * 365 * 86_400) });
      let awaited = "";
      // Older than any the API makes: they come first in every scan.
      const store = openEventStore(undefined, service.database.db);
      const registries = createRegistries(store);
      const initiate = (hostConfiguration: string, minute: number) => {
        const id = newId();
        return payments.handle({ store, metadata: {}, registries }, id, {
          type: "InitiateTransaction",
          transactionType: "sale",
          transactionId: id,
          amount: 100,
          currency: "USD",
          clientId: client.clientId,
          userId: "user_1",
          processor: "processor_a",
          hostConfigurationId: hostConfiguration,
          hostConfigurationVersion: 1,
          card: safeCard(new Secret(approvedCard.number), 12, 2030, "fp"),
          reference: null,
          metadata: {},
          now: new Date(Date.UTC(2020, 0, 1, 0, minute)).toISOString(),
        });
      };
      await initiate(newId(), 0);
      for (let minute = 1; minute <= 120; minute += 1) await initiate(hostConfigurationId, minute);
      const sale = await sell(service, client.key);
      awaited = sale.body.transaction.id;
      await vi.waitFor(async () => expect(await statusOf(service, client.key, awaited)).toBe("approved"), eventually);
      expect(service.logs()).toContain("resolving a transaction failed");
    });

    it("shows pending transactions by age in /metrics", async () => {
      const { service, client } = await start({ submit: () => "unknown", inquiry: () => "unknown" });
      await sell(service, client.key);
      await vi.waitFor(async () => {
        const metrics = await service.request("GET", "/metrics", { key: null });
        expect(metrics.text).toContain('pending_transactions{age="<1m"} 1');
        expect(metrics.text).toContain('pending_transactions{age=">=1h"} 0');
        expect(metrics.text).toMatch(/pending_transaction_oldest_age_seconds \d/);
      }, eventually);
    });
  });
}
