import { createRegistries } from "../../src/commands/context.ts";
import { settlementCandidatesOf } from "../../src/projections/transactions/settlement-candidates.ts";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { createHttpClient } from "../../src/processors/http.ts";
import type { HostConfigurationView } from "../../src/domain/host-configurations/decider.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { type Service, startService } from "../../src/service.ts";
import { newId } from "../../src/ids.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startProcessorRelay } from "../support/processor-relay.ts";
import { everyProcessorAt, type Json, startTestService, type TestService, testConfig } from "../support/service.ts";
import { transactionsProjection } from "../../src/projections/transactions/transactions-projection.ts";
import { whileProjectionStalled } from "../support/stalled-projection.ts";
import { closeSettlement, finishSettlement, type SettlementContext } from "../../src/commands/settlements/index.ts";
import { loadMasterKeys } from "../../src/crypto/master-keys.ts";
import { createSecretBox } from "../../src/crypto/secrets.ts";
import { settlementClaimStreamId } from "../../src/domain/settlements/claim.ts";
import type { EventStore } from "../../src/eventstore/port.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { createConnectors } from "../../src/processors/connectors.ts";

const card = (number = "4242424242424242") => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });
const fastLifecycle = { LIFECYCLE_CHECK_INTERVAL_MS: "50", SETTLEMENT_RESUME_AFTER_MS: "1000" };

/** A clock the test moves: the service reads it for every batch time, cutoff and settledAt. */
function movableClock(start: string) {
  let current = new Date(start);
  return { now: () => current, set: (moment: string) => (current = new Date(moment)) };
}

for (const target of testDatabaseTargets()) {
  describe(`settlement batches, on ${target}`, () => {
    const clock = movableClock("2026-06-10T12:00:00Z");
    let simulator: Simulator;
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    let hostConfiguration: HostConfigurationView;

    beforeAll(async () => {
      simulator = await startSimulator();
      api = await startTestService(target, { ...everyProcessorAt(simulator.url), ...fastLifecycle }, { now: clock.now });
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status).toBe(201);
      hostConfiguration = created.body;
    });
    afterAll(async () => {
      await api?.stop();
      await simulator?.close();
    });

    const post = (path: string, body: object, key = acme.key) => api.request("POST", `/v1/transactions/${path}`, { key, body });
    const sale = async (amount: number) => {
      const response = await post("sale", { processor: "processor_a", amount, currency: "USD", card: card(), userId: "u1" });
      expect(response.status).toBe(201);
      return response.body;
    };
    /** The batches closed so far (a batch is listed from the moment it opens, `closing`). */
    const settlements = async (query = "") =>
      ((await api.request("GET", `/v1/settlements${query}`)).body.data as Json[]).filter((batch) => batch.status !== "closing");
    const transaction = async (id: string) => (await api.request("GET", `/v1/transactions/${id}`, { key: acme.key })).body;
    /** The batch's transactions, paged two at a time, as the client reads them. */
    const batchTransactionIds = async (settlementId: string) => {
      const ids: string[] = [];
      let cursor = "";
      do {
        const page = await api.request("GET", `/v1/settlements/${settlementId}/transactions?limit=2${cursor}`, { key: acme.key });
        expect(page.status).toBe(200);
        ids.push(...page.body.data.map((listed: { id: string }) => listed.id));
        cursor = page.body.nextCursor ? `&cursor=${page.body.nextCursor}` : "";
      } while (cursor);
      return ids;
    };

    it("closes the day's batch at the configuration's local settlement time, once, with both sides' totals", async () => {
      const sold = await sale(1000);
      const authorization = await post("authorization", { processor: "processor_a", amount: 3000, currency: "USD", card: card(), userId: "u1" });
      const captured = await post("capture", { transactionId: authorization.body.id, amount: 2000 });
      const refunded = await post("refund", { transactionId: sold.id, amount: 300 });
      expect([authorization.status, captured.status, refunded.status]).toEqual([201, 201, 201]);

      // 07:00 in Chicago: the day's 23:30 has not come, and yesterday's batch has nothing made before its cutoff.
      await sleep(300);
      expect(await settlements()).toEqual([]);

      clock.set("2026-06-11T04:31:00Z"); // 23:31 in Chicago, June 10
      await vi.waitFor(async () => expect(await settlements()).toHaveLength(1), { timeout: 10_000, interval: 50 });
      const [batch] = await settlements();
      expect(batch).toMatchObject({
        clientId: acme.clientId,
        processor: "processor_a",
        hostConfigurationId: hostConfiguration.id,
        cutoff: "2026-06-11T04:30:00.000Z",
        status: "matched",
        totals: [{ currency: "USD", salesCount: 2, salesAmount: 3000, refundsCount: 1, refundsAmount: 300, netAmount: 2700 }],
      });
      expect(batch.processorTotals).toEqual(batch.totals);
      expect(batch.transactionCount).toBe(3);
      // The job's close is no write of this client's: the transactions read model, which the batch's
      // list and the sale are read from, may trail the settlements one.
      await vi.waitFor(
        async () => expect(await batchTransactionIds(batch.id)).toEqual([sold.id, captured.body.id, refunded.body.id].toSorted().toReversed()),
        { timeout: 10_000, interval: 50 },
      );
      expect(await transaction(sold.id)).toMatchObject({ settlementId: batch.id, settledAt: "2026-06-11T04:31:00.000Z" });
      expect((await transaction(authorization.body.id)).settlementId).toBeNull();
      expect((await api.request("GET", `/v1/settlements/${batch.id}`, { key: acme.key })).body).toEqual(batch);

      // Settled: no void any more, a refund still.
      const voided = await post("void", { transactionId: sold.id });
      expect(voided.status).toBe(409);
      expect(voided.body.code).toBe("invalid_transaction_state");
      const lateRefund = await post("refund", { transactionId: sold.id, amount: 100 });
      expect(lateRefund.status).toBe(201);

      // One batch that day, however many passes run; the refund made after the cutoff waits for the next.
      await sleep(300);
      expect(await settlements()).toHaveLength(1);
      clock.set("2026-06-12T04:31:00Z");
      await vi.waitFor(async () => expect(await settlements()).toHaveLength(2), { timeout: 10_000, interval: 50 });
      const [next] = await settlements();
      await vi.waitFor(async () => expect(await batchTransactionIds(next.id)).toEqual([lateRefund.body.id]), { timeout: 10_000, interval: 50 });
      expect(next.totals).toEqual([{ currency: "USD", salesCount: 0, salesAmount: 0, refundsCount: 1, refundsAmount: 100, netAmount: -100 }]);
    });

    it("closes a batch by hand: 201 the batch, 409 nothing_to_settle when nothing waits, 404 for another processor's id", async () => {
      const sold = await sale(700);
      const settle = (processor = "processor_a") => api.request("POST", `/v1/host-configurations/${processor}/${hostConfiguration.id}/settle`, {});
      const closed = await settle();
      expect(closed.status).toBe(201);
      expect(closed.body).toMatchObject({ status: "matched", transactionCount: 1 });
      expect(await batchTransactionIds(closed.body.id)).toEqual([sold.id]);
      const again = await settle();
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("nothing_to_settle");
      expect((await settle("processor_b")).status).toBe(404);
      expect((await api.request("POST", `/v1/host-configurations/processor_a/${hostConfiguration.id}/settle`, { key: acme.key, body: {} })).status).toBe(403);
    });

    it("opens a batch only once the transactions read model holds what the log held: a sale recorded while it lagged is in the batch", async () => {
      const settle = () => api.request("POST", `/v1/host-configurations/processor_a/${hostConfiguration.id}/settle`, {});
      let sold: { id: string } | undefined;
      let closing: ReturnType<typeof settle> | undefined;
      await whileProjectionStalled(api.database.db, transactionsProjection.name, async () => {
        sold = await sale(900);
        // Another instance closes: it has no own writes of the sale to wait for (as the chaos harness's second instance had none).
        await api.restart();
        closing = settle();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      });
      const closed = await closing!;
      expect(closed.status, closed.text).toBe(201);
      expect(closed.body).toMatchObject({ status: "matched", transactionCount: 1 });
      expect(await batchTransactionIds(closed.body.id)).toEqual([sold!.id]);
    });

    it("answers 503 when the transactions read model stays behind, and opens nothing", async () => {
      const settle = () => api.request("POST", `/v1/host-configurations/processor_a/${hostConfiguration.id}/settle`, {});
      const before = (await settlements()).length;
      await whileProjectionStalled(api.database.db, transactionsProjection.name, async () => {
        await sale(800);
        const refused = await settle();
        expect([refused.status, refused.body.code], refused.text).toEqual([503, "service_unavailable"]);
      });
      expect(await settlements()).toHaveLength(before);
      await vi.waitFor(async () => expect((await settle()).status).toBe(201), { timeout: 15_000 });
    }, 60_000);

    it("reports a batch whose processor totals differ as mismatched: logged and counted in /metrics", async () => {
      const sold = await sale(900);
      // Voided at the processor behind the ledger's back: the processor will not count it.
      const http = createHttpClient({ timeoutMs: 5_000 });
      const voided = await createConnectors({ baseUrls: simulator.baseUrls, http }).processor_a.submit({
        operation: "void",
        transactionId: newId(),
        parentTransactionId: sold.id,
        parentProcessorReference: sold.processorResponse.reference,
        amount: 900,
        currency: "USD",
        hostConfiguration: { view: hostConfiguration, credentials: null },
      });
      await http.close();
      expect(voided.kind).toBe("approved");
      const closed = await api.request("POST", `/v1/host-configurations/processor_a/${hostConfiguration.id}/settle`, {});
      expect(closed.status).toBe(201);
      expect(closed.body).toMatchObject({
        status: "mismatched",
        totals: [{ currency: "USD", salesCount: 1, salesAmount: 900 }],
        processorTotals: [],
      });
      expect(api.logs()).toContain("settlement batch mismatched");
      await vi.waitFor(async () => {
        const metrics = (await api.request("GET", "/metrics")).text;
        expect(metrics).toMatch(/^settlements_mismatched 1$/m);
      });
    });

    it("shows a client its own batches only", async () => {
      const globex = await api.createClient("Globex");
      const mine = await api.request("GET", "/v1/settlements", { key: acme.key });
      // A matched batch settled at least one transaction; the newest may be the mismatched one, which
      // settled none (batches opened at the same moment list by id, and a scheduled batch's is a hash).
      const matched = (mine.body.data as Json[]).find((batch) => batch.status === "matched");
      expect(matched, "a matched batch of Acme's").toBeDefined();
      expect((await api.request("GET", "/v1/settlements", { key: globex.key })).body.data).toEqual([]);
      expect((await api.request("GET", `/v1/settlements?clientId=${acme.clientId}`, { key: globex.key })).body.data).toEqual([]);
      expect((await api.request("GET", `/v1/settlements/${mine.body.data[0].id}`, { key: globex.key })).status).toBe(404);
      const theirs = await api.request("GET", `/v1/settlements/${matched!.id}/transactions`, { key: globex.key });
      expect(theirs.status).toBe(404);
      expect(theirs.body.code).toBe("not_found");
      expect((await api.request("GET", `/v1/settlements/${matched!.id}/transactions`, { key: acme.key })).body.data.length).toBeGreaterThan(0);
      expect((await api.request("GET", `/v1/settlements/${matched!.id}/transactions?cursor=nonsense`, { key: acme.key })).status).toBe(400);
      const filtered = await api.request("GET", `/v1/settlements?clientId=${acme.clientId}&processor=processor_a&limit=1`);
      expect(filtered.body.data).toHaveLength(1);
      const nextPage = await api.request("GET", `/v1/settlements?clientId=${acme.clientId}&processor=processor_a&limit=1&cursor=${filtered.body.nextCursor}`);
      expect(nextPage.body.data[0].id).not.toBe(filtered.body.data[0].id);
      expect((await api.request("GET", "/v1/settlements?processor=processor_b")).body.data).toEqual([]);
    });

    const twoInstancesSkip = target === "pglite" ? "PGlite serves one process: two instances need DATABASE_URL" : undefined;
    if (twoInstancesSkip) console.warn(`SKIPPED closing a batch once with two instances: ${twoInstancesSkip}`);
    it.skipIf(twoInstancesSkip)("closes each batch once with two instances passing at the same moments", async () => {
      const second: Service = await startService(
        testConfig(api.database.url, { ...everyProcessorAt(simulator.url), ...fastLifecycle }),
        createLogger("silent"),
        undefined,
        { now: clock.now },
      );
      try {
        const sales = [await sale(100), await sale(200), await sale(300)];
        // In the read model, which batches are made from (a list waits for this instance's own writes).
        expect((await api.request("GET", "/v1/transactions?limit=1", { key: acme.key })).status).toBe(200);
        const before = (await settlements()).length;
        clock.set("2026-06-13T04:31:00Z");
        await vi.waitFor(async () => expect(await settlements()).toHaveLength(before + 1), { timeout: 10_000, interval: 50 });
        await sleep(500);
        expect(await settlements()).toHaveLength(before + 1);
        const { rows } = await sql<{ count: string }>`
          select count(*) as count from events where type = 'TransactionSettled.v1'
            and data->>'transactionId' in (${sql.join(sales.map((sold) => sold.id))})`.execute(api.database.db);
        expect(Number(rows[0]!.count)).toBe(3);
      } finally {
        await second.stop();
      }
    });
  });

  describe(`one batch of a host configuration at a time, on ${target}`, () => {
    it("refuses a second close while a batch is still open, and the job finishes the open one", async () => {
      const clock = movableClock("2026-07-01T12:00:00Z");
      const simulator = await startSimulator();
      let loseBatchCloseAnswers = true;
      // The processor closes the batch; its answer is lost on the way back.
      const relay = await startProcessorRelay(simulator.url, async ({ path }) => {
        if (loseBatchCloseAnswers && path.endsWith("/batch-close")) throw new Error("answer lost");
      });
      const api = await startTestService(target, { ...everyProcessorAt(relay.url), ...fastLifecycle }, { now: clock.now });
      try {
        const acme = await api.createClient("Acme");
        const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: acme.clientId } });
        const settle = () => api.request("POST", `/v1/host-configurations/processor_a/${created.body.id}/settle`, { body: {} });
        const sold = await api.request("POST", "/v1/transactions/sale", {
          key: acme.key,
          body: { processor: "processor_a", amount: 4200, currency: "USD", card: card(), userId: "u1" },
        });
        expect(sold.status, sold.text).toBe(201);

        // No answer from the processor: the batch stays closing, and the close goes on.
        const first = await settle();
        expect(first.status).toBe(202);
        expect(first.body).toMatchObject({ status: "closing", closedAt: null, transactionCount: 1 });
        expect(first.headers.get("location")).toBe(`/v1/settlements/${first.body.id}`);
        expect((await api.request("GET", `/v1/settlements/${first.body.id}`)).body.status).toBe("closing");
        // Listed while closing, and by its status.
        const list = async (query = "") => (await api.request("GET", `/v1/settlements${query}`)).body.data as Json[];
        expect((await list()).map((batch) => [batch.id, batch.status])).toEqual([[first.body.id, "closing"]]);
        expect((await list("?status=closing")).map((batch) => batch.id)).toEqual([first.body.id]);
        expect(await list("?status=matched")).toEqual([]);
        const second = await settle();
        expect(second.status).toBe(409);
        expect(second.body.code).toBe("settlement_in_progress");

        loseBatchCloseAnswers = false;
        clock.set("2026-07-01T12:00:02Z"); // past SETTLEMENT_RESUME_AFTER_MS
        await vi.waitFor(async () => expect((await list()).map((batch) => batch.status)).toEqual(["matched"]), {
          timeout: 10_000,
          interval: 50,
        });
        const [batch] = await list("?status=matched");
        expect(batch).toMatchObject({ id: first.body.id, status: "matched", transactionCount: 1 });
        expect(await list("?status=closing")).toEqual([]);
        const third = await settle();
        expect(third.status).toBe(409);
        expect(third.body.code).toBe("nothing_to_settle");
      } finally {
        await api.stop();
        await relay.close();
        await simulator.close();
      }
    });
  });

  describe(`a batch missed while the service was down, on ${target}`, () => {
    it("closes at the next start", async () => {
      const clock = movableClock("2026-03-07T12:00:00Z");
      // A processor of its own, that remembers across the service's restarts.
      const simulator = await startSimulator();
      // No pass but the one at start: while the clock moves past 02:30 New York time, nothing runs.
      const api = await startTestService(target, { ...everyProcessorAt(simulator.url), LIFECYCLE_CHECK_INTERVAL_MS: "3600000" }, { now: clock.now });
      try {
        const acme = await api.createClient("Acme");
        const body = { ...validBodies.processor_a, clientId: acme.clientId, settings: { ...(validBodies.processor_a.settings as object), settlementTime: "02:30", timeZone: "America/New_York" } };
        const created = await api.request("POST", "/v1/host-configurations/processor_a", { body });
        expect(created.status).toBe(201);
        const sold = await api.request("POST", "/v1/transactions/sale", {
          key: acme.key,
          body: { processor: "processor_a", amount: 1234, currency: "USD", card: card(), userId: "u1" },
        });
        expect(sold.status).toBe(201);
        // The spring-forward day: 02:30 does not exist, the batch closes at 03:30 EDT (07:30 UTC).
        clock.set("2026-03-08T07:29:00Z");
        await api.restart();
        expect((await api.request("GET", "/v1/settlements")).body.data).toEqual([]);
        clock.set("2026-03-08T09:00:00Z");
        await api.restart();
        // Listed from the moment it opens: waited for until it has closed.
        await vi.waitFor(async () => expect((await api.request("GET", "/v1/settlements")).body.data.map((listed: Json) => listed.status)).toEqual(["matched"]), {
          timeout: 10_000,
          interval: 50,
        });
        const [batch] = (await api.request("GET", "/v1/settlements")).body.data;
        // The close that passed while nothing ran: March 8's, at 03:30 EDT.
        expect(batch).toMatchObject({ cutoff: "2026-03-08T07:30:00.000Z", transactionCount: 1, status: "matched" });
      } finally {
        await api.stop();
        await simulator.close();
      }
    });
  });
}

for (const target of testDatabaseTargets()) {
  describe(`batches under races and failures, on ${target}`, () => {
    let simulator: Simulator;
    let held: { reached: Promise<void>; release: () => void; arrived: () => void; released: Promise<void> } | undefined;
    let relay: Awaited<ReturnType<typeof startProcessorRelay>>;
    const http = createHttpClient({ timeoutMs: 5_000 });

    beforeAll(async () => {
      simulator = await startSimulator();
      // The next batch close held once the processor closed it, before the service hears its answer.
      relay = await startProcessorRelay(simulator.url, async ({ path }) => {
        const gate = held;
        if (!gate || !path.endsWith("/batch-close")) return;
        held = undefined;
        gate.arrived();
        await gate.released;
      });
    });
    afterAll(async () => {
      await relay?.close();
      await simulator?.close();
      await http.close();
    });

    /** Holds the next batch close's answer: `reached` once the processor closed it, `release` lets the answer through. */
    function holdNextBatchClose() {
      let arrived = (): void => {};
      let release = (): void => {};
      const reached = new Promise<void>((resolve) => (arrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      held = { reached, release, arrived, released };
      return held;
    }

    async function setUp(environment: Record<string, string> = {}) {
      const api = await startTestService(target, { ...everyProcessorAt(relay.url), ...environment });
      const acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: acme.clientId } });
      expect(created.status).toBe(201);
      const hostConfigurationId: string = created.body.id;
      const sales: string[] = [];
      for (const amount of [1500, 2500]) {
        const sold = await api.request("POST", "/v1/transactions/sale", {
          key: acme.key,
          body: { processor: "processor_a", amount, currency: "USD", card: card(), userId: "u1" },
        });
        expect(sold.status, sold.text).toBe(201);
        sales.push(sold.body.id);
      }
      // In the read model, which batches are made from (a list waits for this instance's own writes).
      expect((await api.request("GET", "/v1/transactions?limit=1", { key: acme.key })).status).toBe(200);
      const config = testConfig(api.database.url);
      const secrets = createSecretBox(await loadMasterKeys(config.secretsMasterKeys, config.dataDir, createLogger("silent")));
      const baseUrls = { processor_a: relay.url, processor_b: relay.url, processor_c: relay.url, processor_d: relay.url };
      const store = new PostgresEventStore(api.database.db);
      const registries = createRegistries(store);
      /** What another instance's lifecycle job works with, on the same stores. */
      const context = (overrides: Partial<SettlementContext> = {}): SettlementContext => ({
        store,
        registries,
        now: () => new Date(),
        secrets,
        connectors: createConnectors({ baseUrls, http }),
        logger: createLogger("silent"),
        metadata: { actor: { role: "system" } },
        settlementCandidates: settlementCandidatesOf(api.database.db, store),
        ...overrides,
      });
      const batch = (settlementId = newId()) => ({
        settlementId,
        hostConfigurationId,
        clientId: acme.clientId,
        processor: "processor_a" as const,
        localDate: "2026-08-01",
        cutoff: new Date(),
      });
      const settle = (headers: Record<string, string> = {}) =>
        api.request("POST", `/v1/host-configurations/processor_a/${hostConfigurationId}/settle`, { body: {}, headers });
      return { api, acme, hostConfigurationId, sales, context, batch, settle };
    }

    it("a second opener of the same batch leaves the claim to the first: a manual close meanwhile is refused, not a second batch of the same sales", async () => {
      const { api, context, batch, settle } = await setUp();
      try {
        const scheduled = batch();
        const gate = holdNextBatchClose();
        const winner = closeSettlement(context(), scheduled, { staleAfterMs: 60_000 });
        await gate.reached;
        // Another instance's pass at the same moment: the same batch, already opened.
        await closeSettlement(context(), scheduled, { staleAfterMs: 60_000 });
        const manual = await settle();
        expect(manual.status, manual.text).toBe(409);
        expect(manual.body.code).toBe("settlement_in_progress");
        gate.release();
        expect(await winner).toMatchObject({ kind: "batch", settlement: { id: scheduled.settlementId, status: "matched", transactionCount: 2 } });
      } finally {
        await api.stop();
      }
    }, 60_000);

    it("an opening that fails holds nothing: the next manual close closes the batch", async () => {
      const { api, context, batch, settle, sales } = await setUp();
      try {
        const healthy = context().store;
        // The batch's opening refused by the store (as EventStoreDB refused one too large to append).
        const refusingOpenings: EventStore = {
          append: (streamId, events, expected) =>
            events.some((event) => event.type.startsWith("SettlementOpened"))
              ? Promise.reject(new Error("Maximum Append Size of 1048576 Exceeded."))
              : healthy.append(streamId, events, expected),
          appendLinked: (appends) => healthy.appendLinked(appends),
          readStream: (streamId, options) => healthy.readStream(streamId, options),
          readStreams: (streamIds) => healthy.readStreams(streamIds),
          readAll: (options) => healthy.readAll(options),
          readHead: () => healthy.readHead(),
          hasEventsAfter: (after, types) => healthy.hasEventsAfter(after, types),
          subscribe: (options) => healthy.subscribe(options),
          close: () => healthy.close(),
        };
        await expect(closeSettlement(context({ store: refusingOpenings }), batch(), { staleAfterMs: 60_000 })).rejects.toThrow(/Maximum Append Size/);
        const manual = await settle();
        expect(manual.status, manual.text).toBe(201);
        expect(manual.body).toMatchObject({ status: "matched", transactionCount: sales.length });
      } finally {
        await api.stop();
      }
    }, 60_000);

    it("a retry of a long close under its Idempotency-Key answers that batch as it stands, never a conflict", async () => {
      const { api, settle, sales } = await setUp({ IDEMPOTENCY_IN_PROGRESS_TIMEOUT_MS: "200", SETTLEMENT_SYNC_WAIT_MS: "300" });
      try {
        const key = { "idempotency-key": "close-now" };
        const gate = holdNextBatchClose();
        const first = settle(key);
        await gate.reached;
        await sleep(400); // past the key's lock: the retry takes the key over
        const retried = await settle(key);
        expect(retried.status, retried.text).toBe(202);
        expect(retried.body).toMatchObject({ status: "closing", transactionCount: sales.length });
        gate.release();
        const answered = await first;
        expect(answered.body.id).toBe(retried.body.id);
        await vi.waitFor(async () => expect((await api.request("GET", `/v1/settlements/${answered.body.id}`)).body.status).toBe("matched"), {
          timeout: 10_000,
          interval: 50,
        });
        const later = await settle(key);
        expect(later.status, later.text).toBe(201);
        expect(later.body).toMatchObject({ id: answered.body.id, status: "matched", transactionCount: sales.length });
      } finally {
        await api.stop();
      }
    }, 60_000);

    it("a retry that finds its key bound to a batch not opened yet, while the key's first request may still run, opens nothing and is told to retry", async () => {
      const { api, settle } = await setUp();
      try {
        expect((await settle()).status).toBe(201);
        const key = { "idempotency-key": "close-after-crash" };
        expect((await settle(key)).body.code).toBe("nothing_to_settle");
        // The key as a first request leaves it when its instance dies between binding the key to
        // its batch and opening the batch (chaos, seed 11): bound, unanswered, its claim still held.
        const batchId = newId();
        await api.database.db
          .updateTable("idempotency_records")
          .set({ status_code: null, response_body: null, response_headers: null, completed_at: null, claim_token: "crashed" })
          .set({ transaction_id: batchId, payment_id: batchId, locked_until: new Date(Date.now() + 60_000) })
          .where("idempotency_key", "=", key["idempotency-key"])
          .execute();
        const retried = await settle(key);
        expect(retried.status, retried.text).toBe(409);
        expect(retried.body.code).toBe("idempotency_request_in_progress");
      } finally {
        await api.stop();
      }
    }, 60_000);

    it("a manual close whose batch the lifecycle job failed meanwhile answers the processor's refusal, not an internal error", async () => {
      const { api, context, hostConfigurationId, settle } = await setUp();
      try {
        const gate = holdNextBatchClose();
        const manual = settle();
        await gate.reached;
        const [claimed] = await context().store.readStream(settlementClaimStreamId(hostConfigurationId), { direction: "backwards", maxCount: 1 });
        const settlementId = String(claimed!.data.settlementId);
        // The job finishes the same batch on another instance, and its processor refuses it.
        const connectors = createConnectors({ baseUrls: { processor_a: relay.url, processor_b: relay.url, processor_c: relay.url, processor_d: relay.url }, http });
        const refusing = { ...connectors, processor_a: { ...connectors.processor_a, closeBatch: async () => ({ kind: "refused" as const, message: "Batch refused." }) } };
        await finishSettlement(context({ connectors: refusing }), settlementId, { staleAfterMs: 0 });
        gate.release();
        const answered = await manual;
        expect(answered.status, answered.text).toBe(502);
        expect(answered.body.code).toBe("processor_error");
        expect(answered.body.detail).toBe(`Batch ${settlementId} failed: Batch refused. Its transactions wait for the next batch.`);
        // A failed batch is listed, among every status and by its own.
        const listed = await api.request("GET", "/v1/settlements?status=failed");
        expect(listed.body.data.map((batch: Json) => [batch.id, batch.status])).toEqual([[settlementId, "failed"]]);
        expect((await api.request("GET", "/v1/settlements")).body.data.map((batch: Json) => batch.id)).toContain(settlementId);
      } finally {
        await api.stop();
      }
    }, 60_000);
  });
}
