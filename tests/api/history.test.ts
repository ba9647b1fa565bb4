import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ApiResponse, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

type Client = Awaited<ReturnType<TestService["createClient"]>>;
interface Transaction {
  id: string;
  type: string;
  status: string;
  state: string;
  parentTransactionId: string | null;
  clientId: string;
  userId: string;
  processor: string;
  currency: string;
  amount: number;
  reference: string | null;
  createdAt: string;
}

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });
const transactionOf = (response: ApiResponse): Transaction => response.body.transaction ?? response.body;
const ids = (transactions: readonly Transaction[]) => transactions.map((transaction) => transaction.id);
const newestFirst = (a: Transaction, b: Transaction) =>
  b.createdAt === a.createdAt ? (b.id < a.id ? -1 : 1) : b.createdAt < a.createdAt ? -1 : 1;
const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)])).toString();

for (const target of testDatabaseTargets()) {
  describe(`transaction history on ${target}`, () => {
    let api: TestService;
    let acme: Client;
    let globex: Client;
    /** Every transaction of Acme, as the POSTs answered them. */
    const acmeMade: Transaction[] = [];
    let globexSale: Transaction;

    const pay = async (client: Client, type: "sale" | "authorization", body: Record<string, unknown>, number = "4242424242424242") => {
      const response = await api.request("POST", `/v1/transactions/${type}`, {
        key: client.key,
        body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_1", card: card(number), ...body },
      });
      expect(response.body.id ?? response.body.transaction?.id, response.text).toBeDefined();
      return transactionOf(response);
    };
    const follow = async (client: Client, type: "capture" | "refund" | "void", body: Record<string, unknown>) => {
      const response = await api.request("POST", `/v1/transactions/${type}`, { key: client.key, body });
      expect(response.status, response.text).toBe(201);
      return transactionOf(response);
    };

    /** Every page of a listing, following nextCursor. */
    async function listAll(params: Record<string, string | number>, key: string): Promise<Transaction[]> {
      const all: Transaction[] = [];
      let cursor: string | null = null;
      do {
        const response: ApiResponse = await api.request("GET", `/v1/transactions?${query(cursor ? { ...params, cursor } : params)}`, { key });
        expect(response.status, response.text).toBe(200);
        all.push(...response.body.data);
        cursor = response.body.nextCursor;
      } while (cursor);
      return all;
    }

    beforeAll(async () => {
      api = await startTestService(target);
      acme = await api.createClient("Acme");
      globex = await api.createClient("Globex");
      for (const client of [acme, globex]) {
        for (const processor of ["processor_a", "processor_b"] as const) {
          const created = await api.request("POST", `/v1/host-configurations/${processor}`, {
            body: { ...validBodies[processor], clientId: client.clientId },
          });
          expect(created.status).toBe(201);
        }
      }
      const sale = await pay(acme, "sale", { amount: 1000, userId: "user_1", reference: "order-1" });
      const euroSale = await pay(acme, "sale", { amount: 2500, currency: "EUR", processor: "processor_b", userId: "user_2", reference: "order-2" });
      const auth = await pay(acme, "authorization", { amount: 3000, userId: "user_1", reference: "order-3" });
      const declined = await pay(acme, "sale", { amount: 1500, userId: "user_2" }, "4000000000000002");
      const failed = await pay(acme, "sale", { amount: 700, processor: "processor_b", currency: "EUR", userId: "user_3" }, "4000000000000119");
      const capture = await follow(acme, "capture", { transactionId: auth.id, amount: 1200 });
      const refund = await follow(acme, "refund", { transactionId: sale.id, amount: 400 });
      const otherAuth = await pay(acme, "authorization", { amount: 999, userId: "user_3", reference: "order-1" });
      const voided = await follow(acme, "void", { transactionId: otherAuth.id });
      acmeMade.push(sale, euroSale, auth, declined, failed, capture, refund, otherAuth, voided);
      globexSale = await pay(globex, "sale", { amount: 1000, userId: "user_1", reference: "order-1" });
    });
    afterAll(() => api.stop());

    it("lists a client's own transactions newest first, as GET by id shows them", async () => {
      const listed = await listAll({}, acme.key);
      expect(ids(listed).sort()).toEqual(ids(acmeMade).sort());
      expect(listed).toEqual([...listed].sort(newestFirst));
      for (const transaction of listed) {
        const read = await api.request("GET", `/v1/transactions/${transaction.id}`, { key: acme.key });
        expect(transaction).toEqual(read.body);
      }
      expect(ids(await listAll({}, globex.key))).toEqual([globexSale.id]);
      const firstPage = await api.request("GET", "/v1/transactions", { key: acme.key });
      expect(firstPage.body).toEqual({ data: listed, nextCursor: null });
    });

    describe("filters, alone and combined, each inclusive where it is a range", () => {
      let all: Transaction[];
      beforeAll(async () => {
        all = await listAll({}, acme.key);
      });
      const sorted = (transactions: Transaction[]) => ids(transactions.sort(newestFirst));

      const cases: [string, (all: Transaction[]) => Record<string, string | number>, (t: Transaction, all: Transaction[]) => boolean][] = [
        ["userId", () => ({ userId: "user_1" }), (t) => t.userId === "user_1"],
        ["type", () => ({ type: "sale" }), (t) => t.type === "sale"],
        ["type capture", () => ({ type: "capture" }), (t) => t.type === "capture"],
        ["status declined", () => ({ status: "declined" }), (t) => t.status === "declined"],
        ["status failed", () => ({ status: "failed" }), (t) => t.status === "failed"],
        ["state partially_refunded", () => ({ state: "partially_refunded" }), (t) => t.state === "partially_refunded"],
        ["state partially_captured", () => ({ state: "partially_captured" }), (t) => t.state === "partially_captured"],
        ["state voided", () => ({ state: "voided" }), (t) => t.state === "voided"],
        ["state succeeded", () => ({ state: "succeeded" }), (t) => t.state === "succeeded"],
        ["state declined", () => ({ state: "declined" }), (t) => t.state === "declined"],
        [
          "parentTransactionId: an authorization's captures",
          (all) => ({ parentTransactionId: all.find((t) => t.type === "capture")!.parentTransactionId! }),
          (t, all) => t.parentTransactionId === all.find((c) => c.type === "capture")!.parentTransactionId,
        ],
        [
          "parentTransactionId and type: a sale's refunds",
          (all) => ({ parentTransactionId: all.find((t) => t.type === "refund")!.parentTransactionId!, type: "refund" }),
          (t, all) => t.type === "refund" && t.parentTransactionId === all.find((r) => r.type === "refund")!.parentTransactionId,
        ],
        ["processor", () => ({ processor: "processor_b" }), (t) => t.processor === "processor_b"],
        ["currency", () => ({ currency: "EUR" }), (t) => t.currency === "EUR"],
        ["reference", () => ({ reference: "order-1" }), (t) => t.reference === "order-1"],
        ["amountMin", () => ({ amountMin: 1200 }), (t) => t.amount >= 1200],
        ["amountMax", () => ({ amountMax: 999 }), (t) => t.amount <= 999],
        ["amountMin and amountMax, both inclusive", () => ({ amountMin: 999, amountMax: 1500 }), (t) => t.amount >= 999 && t.amount <= 1500],
        [
          "createdFrom and createdTo, both inclusive",
          (all) => ({ createdFrom: byAge(all, 2).createdAt, createdTo: byAge(all, 6).createdAt }),
          (t, all) => t.createdAt >= byAge(all, 2).createdAt && t.createdAt <= byAge(all, 6).createdAt,
        ],
        ["createdFrom alone", (all) => ({ createdFrom: byAge(all, 3).createdAt }), (t, all) => t.createdAt >= byAge(all, 3).createdAt],
        ["createdTo alone", (all) => ({ createdTo: byAge(all, 3).createdAt }), (t, all) => t.createdAt <= byAge(all, 3).createdAt],
        ["userId and type", () => ({ userId: "user_1", type: "sale" }), (t) => t.userId === "user_1" && t.type === "sale"],
        [
          "status, processor and currency",
          () => ({ status: "approved", processor: "processor_a", currency: "USD" }),
          (t) => t.status === "approved" && t.processor === "processor_a" && t.currency === "USD",
        ],
        [
          "reference, type and amount range",
          () => ({ reference: "order-1", type: "authorization", amountMin: 500, amountMax: 1000 }),
          (t) => t.reference === "order-1" && t.type === "authorization" && t.amount >= 500 && t.amount <= 1000,
        ],
        [
          "every filter at once",
          (all) => ({
            userId: "user_1",
            type: "sale",
            status: "approved",
            processor: "processor_a",
            currency: "USD",
            reference: "order-1",
            createdFrom: byAge(all, 0).createdAt,
            createdTo: byAge(all, all.length - 1).createdAt,
            amountMin: 1000,
            amountMax: 1000,
          }),
          (t) => t.userId === "user_1" && t.type === "sale" && t.reference === "order-1" && t.amount === 1000,
        ],
      ];

      it.each(cases)("%s", async (_name, params, keep) => {
        const filter = params(all);
        const expected = all.filter((t) => keep(t, all));
        // Each case must select something, and not everything, to prove the filter works.
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(all.length);
        expect(ids(await listAll(filter, acme.key))).toEqual(sorted(expected));
        // The same filters page the same way.
        expect(ids(await listAll({ ...filter, limit: 1 }, acme.key))).toEqual(sorted(expected));
      });

      it("matches nothing when no transaction fits", async () => {
        const filters: Record<string, string | number>[] = [{ userId: "nobody" }, { reference: "order-404" }, { currency: "JPY" }, { amountMin: 100000 }];
        for (const filter of filters) {
          const response = await api.request("GET", `/v1/transactions?${query(filter)}`, { key: acme.key });
          expect(response.body).toEqual({ data: [], nextCursor: null });
        }
      });

      it("takes a date alone as its whole UTC day, and any offset", async () => {
        const firstDay = byAge(all, 0).createdAt.slice(0, 10);
        const lastDay = byAge(all, all.length - 1).createdAt.slice(0, 10);
        const dayBefore = new Date(Date.parse(firstDay) - 86_400_000).toISOString().slice(0, 10);
        expect(await listAll({ createdFrom: firstDay, createdTo: lastDay }, acme.key)).toHaveLength(all.length);
        expect(await listAll({ createdTo: dayBefore }, acme.key)).toHaveLength(0);
        const newest = byAge(all, all.length - 1);
        const shifted = new Date(Date.parse(newest.createdAt) + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
        expect(ids(await listAll({ createdFrom: shifted }, acme.key))).toEqual([newest.id]);
      });
    });

    it("keyset pages over 25 transactions never skip or repeat, even while new ones arrive", async () => {
      const busy = await api.createClient("Busy");
      await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: busy.clientId } });
      const made: Transaction[] = [];
      for (let batch = 0; batch < 5; batch += 1) {
        made.push(...(await Promise.all(Array.from({ length: 5 }, (_, i) => pay(busy, "sale", { amount: 100 + batch * 5 + i })))));
      }
      const seen: Transaction[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response: ApiResponse = await api.request("GET", `/v1/transactions?${query(cursor ? { limit: 10, cursor } : { limit: 10 })}`, {
          key: busy.key,
        });
        expect(response.status).toBe(200);
        expect(response.body.data.length).toBeLessThanOrEqual(10);
        seen.push(...response.body.data);
        cursor = response.body.nextCursor;
        pages += 1;
        // New transactions between pages are newer than every page already read.
        await Promise.all([pay(busy, "sale", { amount: 1 }), pay(busy, "authorization", { amount: 2 })]);
      } while (cursor);
      expect(pages).toBe(3);
      expect(new Set(ids(seen)).size).toBe(seen.length);
      expect(ids(seen)).toEqual(ids([...made].sort(newestFirst)));
      expect(await listAll({}, busy.key)).toHaveLength(25 + 2 * 3);
    });

    it("gives an admin every client's transactions, or one client's with clientId", async () => {
      const everyone = await listAll({ limit: 100 }, TEST_ADMIN_KEY);
      expect(ids(everyone)).toEqual(expect.arrayContaining([...ids(acmeMade), globexSale.id]));
      expect(everyone).toEqual([...everyone].sort(newestFirst));
      expect(ids(await listAll({ clientId: acme.clientId }, TEST_ADMIN_KEY)).sort()).toEqual(ids(acmeMade).sort());
      expect(ids(await listAll({ clientId: globex.clientId }, TEST_ADMIN_KEY))).toEqual([globexSale.id]);
      expect(ids(await listAll({ clientId: globex.clientId, userId: "user_1", reference: "order-1" }, TEST_ADMIN_KEY))).toEqual([globexSale.id]);
      expect(await listAll({ clientId: "0190a8e2-7c3b-7def-8a12-000000000000" }, TEST_ADMIN_KEY)).toEqual([]);
    });

    it("keeps clients apart: another client's id gives an empty list, its own id is fine", async () => {
      const own = await api.request("GET", `/v1/transactions?clientId=${acme.clientId}`, { key: acme.key });
      expect(ids(own.body.data).sort()).toEqual(ids(acmeMade).sort());
      const other = await api.request("GET", `/v1/transactions?clientId=${globex.clientId}`, { key: acme.key });
      expect(other.status).toBe(200);
      expect(other.body).toEqual({ data: [], nextCursor: null });
      const sameReference = await api.request("GET", "/v1/transactions?reference=order-1", { key: globex.key });
      expect(ids(sameReference.body.data)).toEqual([globexSale.id]);
      const acmeSale = acmeMade.find((t) => t.type === "sale" && t.status === "approved")!;
      const othersChildren = await api.request("GET", `/v1/transactions?parentTransactionId=${acmeSale.id}`, { key: globex.key });
      expect(othersChildren.body).toEqual({ data: [], nextCursor: null });
      expect((await api.request("GET", "/v1/transactions", { key: null })).status).toBe(401);
    });

    it.each([
      ["createdFrom=yesterday", ["createdFrom"]],
      ["createdTo=2025-13-01", ["createdTo"]],
      ["createdTo=2025-02-30", ["createdTo"]],
      ["createdFrom=2025-01-01T10:00:00", ["createdFrom"]],
      ["createdFrom=0000-01-01", ["createdFrom"]],
      ["createdFrom=0001-01-01T00:00:00%2B14:00", ["createdFrom"]],
      ["createdTo=9999-12-31T23:59:59-14:00", ["createdTo"]],
      ["createdFrom=2025-01-02T00:00:00Z&createdTo=2025-01-01T23:59:59Z", ["createdFrom", "createdTo"]],
      ["createdFrom=2025-01-02&createdTo=2025-01-01", ["createdFrom", "createdTo"]],
      ["amountMin=-1", ["amountMin"]],
      ["amountMax=12.5", ["amountMax"]],
      ["amountMax=lots", ["amountMax"]],
      ["amountMin=500&amountMax=499", ["amountMin", "amountMax"]],
      ["limit=0", ["limit"]],
      ["limit=101", ["limit"]],
      ["limit=ten", ["limit"]],
      ["colour=red", ["colour"]],
      ["cursor=not-a-cursor", ["cursor"]],
      [`cursor=${Buffer.from("2025-01-01T00:00:00.000Z|nope").toString("base64url")}`, ["cursor"]],
      [`cursor=${Buffer.from("0000-01-01T00:00:00.000Z|0190a8e2-7c3b-7def-8a12-3456789abcde").toString("base64url")}`, ["cursor"]],
      ["type=payment", ["type"]],
      ["status=settled", ["status"]],
      ["state=approved", ["state"]],
      ["parentTransactionId=order-1", ["parentTransactionId"]],
      ["processor=processor_z", ["processor"]],
      ["currency=usd", ["currency"]],
      ["currency=XYZ", ["currency"]],
      ["clientId=acme", ["clientId"]],
      ["userId=", ["userId"]],
    ])("answers ?%s with 400 validation_error naming %j", async (search, paths) => {
      const response = await api.request("GET", `/v1/transactions?${search}`, { key: acme.key });
      expect(response.status, response.text).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect(response.body.code).toBe("validation_error");
      expect(response.body.errors.map((error: { path: string }) => error.path)).toEqual(paths);
      // Each error says what the parameter must be, not only that it is wrong.
      for (const error of response.body.errors) expect(error.message).not.toBe("Invalid input");
    });

    it("says a time bound must be an ISO 8601 timestamp", async () => {
      const response = await api.request("GET", "/v1/transactions?createdFrom=yesterday", { key: acme.key });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ path: "createdFrom", message: expect.stringContaining("ISO 8601 timestamp") }]);
    });

    it("documents every filter in the OpenAPI description", async () => {
      const openapi = await api.request("GET", "/openapi.json", { key: null });
      const parameters: { name: string; in: string }[] = openapi.body.paths["/v1/transactions"].get.parameters;
      expect(parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name).sort()).toEqual(
        ["amountMax", "amountMin", "clientId", "createdFrom", "createdTo", "currency", "cursor", "limit", "parentTransactionId", "paymentMethodId", "processor", "reference", "state", "status", "type", "userId"],
      );
    });

    it("accepts the boundaries of limit and equal range ends", async () => {
      for (const search of ["limit=1", "limit=100", "amountMin=1000&amountMax=1000", "createdFrom=2025-01-01&createdTo=2025-01-01"]) {
        expect((await api.request("GET", `/v1/transactions?${search}`, { key: acme.key })).status).toBe(200);
      }
    });
  });
}

function byAge(all: Transaction[], index: number): Transaction {
  const oldestFirst = [...all].sort(newestFirst).reverse();
  const transaction = oldestFirst[index];
  if (!transaction) throw new Error(`no transaction ${index}`);
  return transaction;
}
