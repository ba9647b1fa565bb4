import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ProcessorRelay, startProcessorRelay } from "../support/processor-relay.ts";
import { type ApiResponse, everyProcessorAt, startTestService, type TestService } from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });

for (const target of testDatabaseTargets()) {
  describe(`an Idempotency-Key belongs to its transaction, on ${target}`, () => {
    let simulator: Simulator;
    let relay: ProcessorRelay;
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    /** Set by a test: runs after the processor answered, before the service hears the answer. */
    let afterProcessorActs: (() => Promise<void>) | undefined;
    /** The resolver's inquiries (GETs) are answered once this settles: a test holds them back with it. */
    let inquiriesAnswered: Promise<void> = Promise.resolve();

    beforeAll(async () => {
      simulator = await startSimulator();
      relay = await startProcessorRelay(simulator.url, async ({ method }) => {
        if (method === "GET") return inquiriesAnswered;
        const fault = afterProcessorActs;
        afterProcessorActs = undefined;
        await fault?.();
      });
      api = await startTestService(target, everyProcessorAt(relay.url));
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await api?.stop();
      await relay?.close();
      await simulator?.close();
    });

    const sale = (idempotencyKey: string, number = "4242424242424242") =>
      api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        headers: { "idempotency-key": idempotencyKey },
        body: { processor: "processor_a", amount: 1500, currency: "USD", card: card(number), userId: "u1" },
      });
    const initiatedSales = async () => {
      const { rows } = await sql<{ id: string }>`
        select data->>'transactionId' as id from events
        where type = 'TransactionInitiated.v1' and data->>'type' = 'sale' and data->>'clientId' = ${acme.clientId}`.execute(
        api.database.db,
      );
      return rows.map((row) => row.id);
    };

    it("records an answered charge through a failing store, and a retry never charges again", async () => {
      const before = await initiatedSales();
      // The store fails once the processor has charged: the answer is a fact and must be recorded.
      afterProcessorActs = async () => {
        await sql`alter table events rename to events_unreachable`.execute(api.database.db);
        setTimeout(() => void sql`alter table events_unreachable rename to events`.execute(api.database.db), 1_000);
      };
      const key = `charge-${Math.random()}`;
      const first = await sale(key);
      expect(first.status).toBe(201);
      expect(first.body.status).toBe("approved");
      const retried = await sale(key);
      expect(retried.status).toBe(201);
      expect(retried.body.id).toBe(first.body.id);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect((await initiatedSales()).filter((id) => !before.includes(id))).toEqual([first.body.id]);
    });

    it("charges once per key when many keyed sales arrive at once, each twice, and answers each key's retry with its sale", async () => {
      const before = await initiatedSales();
      const keys = Array.from({ length: 30 }, (_, index) => `at-once-${index}-${Math.random()}`);
      // Sent together, their claims, bindings and answers share grouped statements (where requests overlap: PostgreSQL).
      const answers = await Promise.all([...keys, ...keys].map((key) => sale(key)));
      const executed = new Map<string, string>();
      keys.forEach((key, index) => {
        const pair = [answers[index]!, answers[index + keys.length]!];
        const first = pair.filter((answer) => answer.status === 201 && answer.headers.get("idempotent-replayed") === null);
        expect(first, key).toHaveLength(1);
        executed.set(key, first[0]!.body.id);
        const other = pair.find((answer) => answer !== first[0])!;
        if (other.status === 201) expect(other.body.id).toBe(first[0]!.body.id);
        else expect(other.body.code).toBe("idempotency_request_in_progress");
      });
      const made = (await initiatedSales()).filter((id) => !before.includes(id));
      expect(made.sort()).toEqual([...executed.values()].sort());
      const records = await api.database.db
        .selectFrom("idempotency_records")
        .select(["idempotency_key", "transaction_id"])
        .where("idempotency_key", "in", keys)
        .execute();
      expect(records.map((record) => [record.idempotency_key, record.transaction_id]).sort()).toEqual(keys.map((key) => [key, executed.get(key)]).sort());
      const retries = await Promise.all(keys.map((key) => sale(key)));
      retries.forEach((retry, index) => {
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(executed.get(keys[index]!));
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
      });
    });

    it("answers a retry from the log once its sale has an outcome, and 409 while the sale's request still runs", async () => {
      const key = `in-flight-${Math.random()}`;
      let whileInFlight: ApiResponse | undefined;
      // The processor has approved; the first request has not recorded it yet.
      afterProcessorActs = async () => {
        whileInFlight = await sale(key);
      };
      const first = await sale(key);
      expect(first.status).toBe(201);
      expect(whileInFlight?.status).toBe(409);
      expect(whileInFlight?.body.code).toBe("idempotency_request_in_progress");
      // No answer is written for it: the sale's recorded outcome is the key's answer.
      const record = await api.database.db
        .selectFrom("idempotency_records")
        .select(["status_code", "transaction_id"])
        .where("idempotency_key", "=", key)
        .executeTakeFirstOrThrow();
      expect(record).toEqual({ status_code: null, transaction_id: first.body.id });
      const retried = await sale(key);
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect(retried.body).toEqual(first.body);
    });

    it("answers a retry with the transaction as it stands: pending first, approved once resolved", async () => {
      const key = `pending-${Math.random()}`;
      // Until the retry has answered, the processor's answers to inquiries do not reach the resolver.
      let answerInquiries = () => {};
      inquiriesAnswered = new Promise((resolve) => (answerInquiries = resolve));
      let first: ApiResponse;
      try {
        first = await sale(key, "4000000000000408");
        expect(first.status).toBe(504);
        expect(first.body.transaction.status).toBe("pending");
        const whilePending = await sale(key, "4000000000000408");
        expect(whilePending.status).toBe(504);
        expect(whilePending.body.code).toBe("processor_timeout");
        expect(whilePending.body.transaction.id).toBe(first.body.transaction.id);
      } finally {
        answerInquiries();
        inquiriesAnswered = Promise.resolve();
      }
      await vi.waitFor(
        async () => {
          const resolved = await sale(key, "4000000000000408");
          expect(resolved.status).toBe(201);
          expect(resolved.body).toMatchObject({ id: first.body.transaction.id, status: "approved" });
        },
        { timeout: 15_000, interval: 200 },
      );
    });

    it("keys the stored request hash: the card in a body cannot be tested against it", async () => {
      const key = `hash-${Math.random()}`;
      const body = { processor: "processor_a", amount: 1500, currency: "USD", card: card("4242424242424242"), userId: "u1" };
      expect((await sale(key)).status).toBe(201);
      const { rows } = await sql<{ request_hash: string }>`
        select request_hash from idempotency_records where idempotency_key = ${key}`.execute(api.database.db);
      const unkeyed = createHash("sha256").update(`POST /v1/transactions/sale\n${canonicalize(body)}`).digest("hex");
      expect(rows).toHaveLength(1);
      expect(rows[0]!.request_hash).not.toBe(unkeyed);
    });

    it("never stores a created API key, and a replay of its creation answers it null", async () => {
      const headers = { "idempotency-key": `api-key-${Math.random()}` };
      const created = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {}, headers });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^ldgr_sk_/);
      expect(await everythingStored(api.database.db)).not.toContain(created.body.key);
      const replayed = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {}, headers });
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body).toEqual({ ...created.body, key: null });
      expect((await api.request("GET", `/v1/clients/${acme.clientId}`, { key: created.body.key })).status).toBe(200);
    });
  });
}
