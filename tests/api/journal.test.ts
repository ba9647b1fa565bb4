import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventStoreOnClient } from "../../src/eventstore/eventstoredb/event-store.ts";
import { FakeServer } from "../eventstore/fake-eventstoredb-client.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { testEnvironment } from "../support/environment.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

type Client = Awaited<ReturnType<TestService["createClient"]>>;

/** An account's balance as a test states it: `account` → balance on its normal side. */
const balancesByAccount = (data: Json[]) => Object.fromEntries(data.map((row: Json) => [row.account, row.balance]));

/**
 * Events in the target's database on each target; on the last one (the real server when there is
 * one) also in EventStoreDB, through the fake server that plays it as the live one behaves, and in
 * the live server EVENTSTORE_URL names when it is set (a check run by hand: CI has none).
 */
const lastTarget = testDatabaseTargets().at(-1)!;
const runs: { target: typeof lastTarget; events: string; environment: Record<string, string>; options: Parameters<typeof startTestService>[2] }[] = [
  ...testDatabaseTargets().map((target) => ({ target, events: "the same database", environment: {}, options: {} })),
  { target: lastTarget, events: "EventStoreDB (fake server)", environment: {}, options: { openStore: () => eventStoreOnClient(new FakeServer().asClient()) } },
  ...(testEnvironment.eventStoreUrl
    ? [{ target: lastTarget, events: "EventStoreDB at EVENTSTORE_URL", environment: { EVENTSTORE_URL: testEnvironment.eventStoreUrl }, options: {} }]
    : []),
];

for (const { target, events: eventsIn, environment, options } of runs) {
  describe(`the journal through the API, read models on ${target}, events in ${eventsIn}`, () => {
    let api: TestService;
    let acme: Client;
    let globex: Client;
    let globexConfiguration: string;
    const ids: Record<string, string> = {};
    /** After the capture, before the refund. */
    let afterCapture: string;

    const pay = async (client: Client, path: string, body: Record<string, unknown>, status = 201) => {
      const response = await api.request("POST", `/v1/transactions/${path}`, { key: client.key, body });
      expect(response.status, response.text).toBe(status);
      return status === 201 ? (response.body.id as string) : (response.body.transaction.id as string);
    };
    const get = async (path: string, key?: string) => {
      const response = await api.request("GET", `/v1/journal/${path}`, key === undefined ? {} : { key });
      expect(response.status, response.text).toBe(200);
      return response.body;
    };

    beforeAll(async () => {
      api = await startTestService(target, environment, options);
      [acme, globex] = [await api.createClient("Acme"), await api.createClient("Globex")];
      for (const client of [acme, globex]) {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
        expect(created.status, created.text).toBe(201);
        if (client === globex) globexConfiguration = created.body.id;
      }
      const payment = { processor: "processor_a", currency: "USD", userId: "user_1", card: approvedCard };
      ids.authorization = await pay(acme, "authorization", { ...payment, amount: 1000 });
      ids.capture = await pay(acme, "capture", { transactionId: ids.authorization, amount: 600 });
      await new Promise((resolve) => setTimeout(resolve, 5));
      afterCapture = new Date().toISOString();
      await new Promise((resolve) => setTimeout(resolve, 5));
      ids.refund = await pay(acme, "refund", { transactionId: ids.capture, amount: 200 });
      ids.release = await pay(acme, "void", { transactionId: ids.authorization });
      ids.sale = await pay(globex, "sale", { ...payment, amount: 500 });
      await pay(globex, "sale", { ...payment, amount: 300, card: { ...approvedCard, number: "4000000000000002" } }, 402);
      ids.voidedSale = await pay(globex, "sale", { ...payment, amount: 700 });
      await pay(globex, "void", { transactionId: ids.voidedSale });
    });
    afterAll(() => api?.stop());

    it("lists a client's entries newest first, each balanced and naming its event, paged without repeats", async () => {
      const { data, nextCursor } = await get("entries", acme.key);
      expect(nextCursor).toBeNull();
      expect(data.map((entry: Json) => [entry.kind, entry.transactionId])).toEqual([
        ["authorization_voided", ids.release],
        ["refund_approved", ids.refund],
        ["capture_approved", ids.capture],
        ["authorization_approved", ids.authorization],
      ]);
      for (const entry of data) {
        const debits = entry.lines.reduce((total: number, line: Json) => total + line.debit, 0);
        const credits = entry.lines.reduce((total: number, line: Json) => total + line.credit, 0);
        expect(debits).toBe(credits);
        expect(entry).toMatchObject({ clientId: acme.clientId, paymentId: ids.authorization, eventType: "TransactionApproved.v1", currency: "USD", processor: "processor_a" });
      }
      const events = await api.request("GET", `/v1/transactions/${ids.refund}/events`, { key: acme.key });
      const approval = events.body.events.find((event: Json) => event.type === "TransactionApproved.v1" && event.data.transactionId === ids.refund);
      expect(data[1].eventPosition).toBe(approval.position);

      const pages: string[] = [];
      let cursor: string | null = null;
      do {
        const page: Json = await get(`entries?limit=3${cursor ? `&cursor=${cursor}` : ""}`, acme.key);
        pages.push(...page.data.map((entry: Json) => entry.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(pages).toEqual(data.map((entry: Json) => entry.id));

      const refunds = await get(`entries?account=refunds&transactionId=${ids.refund}`, acme.key);
      expect(refunds.data.map((entry: Json) => entry.kind)).toEqual(["refund_approved"]);
    });

    it("answers every account's balance now and as of an earlier moment", async () => {
      const now = await get("balances", acme.key);
      expect(balancesByAccount(now.data)).toEqual({ processor_receivable: 400, sales: 600, refunds: 200, holds: 0, holds_offset: 0 });
      expect(now.data.every((row: Json) => row.clientId === acme.clientId && row.currency === "USD")).toBe(true);
      const before = await get(`balances?asOf=${afterCapture}`, acme.key);
      expect(before.asOf).toBe(afterCapture);
      expect(balancesByAccount(before.data)).toEqual({ processor_receivable: 600, sales: 600, holds: 400, holds_offset: 400 });
      expect(await get("balances?currency=EUR", acme.key)).toMatchObject({ data: [] });
    });

    it("keeps each client's books to itself", async () => {
      expect((await get(`entries?clientId=${acme.clientId}`, globex.key)).data).toEqual([]);
      expect((await get(`entries?transactionId=${ids.refund}`, globex.key)).data).toEqual([]);
      expect((await get(`balances?clientId=${acme.clientId}`, globex.key)).data).toEqual([]);
      const admin = await get(`balances?clientId=${acme.clientId}`);
      expect(balancesByAccount(admin.data)).toMatchObject({ processor_receivable: 400 });
    });

    it("balances debits and credits per currency, and a matched batch moves what the processor owed into settled funds", async () => {
      const trial = await get("trial-balance");
      expect(trial.data).toHaveLength(1);
      expect(trial.data[0]).toMatchObject({ currency: "USD", balanced: true });
      expect(trial.data[0].debit).toBe(trial.data[0].credit);

      const closed = await api.request("POST", `/v1/host-configurations/processor_a/${globexConfiguration}/settle`, { body: {} });
      expect(closed.status, closed.text).toBe(201);
      expect(closed.body.status).toBe("matched");
      expect(balancesByAccount((await get("balances", globex.key)).data)).toEqual({ processor_receivable: 0, sales: 500, settled_funds: 500 });
      const settled = await get(`entries?settlementId=${closed.body.id}`, globex.key);
      expect(settled.data.map((entry: Json) => [entry.kind, entry.transactionId])).toEqual([["transaction_settled", ids.sale]]);
      expect((await get(`trial-balance?clientId=${globex.clientId}`)).data[0]).toMatchObject({ currency: "USD", debit: 500, credit: 500, balanced: true });
    });

    it("refuses what its schemas refuse", async () => {
      for (const query of ["entries?currency=XXX", "entries?account=cash", "balances?asOf=yesterday", "trial-balance?currency=USD", "entries?cursor=nonsense"]) {
        const response = await api.request("GET", `/v1/journal/${query}`, { key: acme.key });
        expect(response.status, query).toBe(400);
        expect(response.body.code).toBe("validation_error");
      }
    });
  });
}
