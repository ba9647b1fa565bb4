import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "../../src/eventstore/port.ts";
import { openEventStore } from "../../src/eventstore/open.ts";
import { createLogger } from "../../src/logger.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { type Service, startService } from "../../src/service.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { apiRequest, type ApiResponse, everyProcessorAt, type Json, startTestService, testConfig, type TestService } from "../support/service.ts";

const ROUNDS = 8;
const RACING_PAYMENTS = 6;

/** Holds the first intent of a new payment appended while closed, until released. */
class IntentGate {
  #closed: { arrived: () => void; released: Promise<void> } | undefined;

  /** Closes the gate; resolves once a payment's intent waits at it. */
  close(): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    this.#closed = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
    return { arrived: arrival, release };
  }

  /** `store`, whose appends of a payment's intent wait while the gate is closed. */
  around(store: EventStore): EventStore {
    return {
      append: async (streamId, events, expected) => {
        const closed = this.#closed;
        if (closed && expected === "no_stream" && events.some((event) => event.type === "TransactionInitiated.v1")) {
          this.#closed = undefined;
          closed.arrived();
          await closed.released;
        }
        return store.append(streamId, events, expected);
      },
      appendLinked: (appends) => store.appendLinked(appends),
      readStream: (streamId, options) => store.readStream(streamId, options),
      readStreams: (streamIds) => store.readStreams(streamIds),
      readAll: (options) => store.readAll(options),
      readHead: () => store.readHead(),
      hasEventsAfter: (after, types) => store.hasEventsAfter(after, types),
      subscribe: (options) => store.subscribe(options),
      close: () => store.close(),
    };
  }
}

/**
 * API.md (payment methods): a deletion that lands while a payment with the method is under way
 * makes that payment `failed` with reason `payment_method_deleted`, recorded before anything is
 * sent to the processor, and answered 404. Two instances on one database, as behind a load
 * balancer: payments on both, the deletion on either.
 */
for (const target of testDatabaseTargets()) {
  describe(`a payment method deleted while payments with it are under way, on two instances on ${target}`, () => {
    let simulator: Simulator;
    let first: TestService;
    let second: Service;
    let key: string;
    const gate = new IntentGate();

    beforeAll(async () => {
      simulator = await startSimulator();
      first = await startTestService(target, everyProcessorAt(simulator.url));
      // On PGlite the second instance shares the first's database in this process, as a second
      // process shares a PostgreSQL server.
      const database = target === "pglite" ? { ...first.database, close: async () => {} } : undefined;
      const config = testConfig(first.database.url, everyProcessorAt(simulator.url));
      second = await startService(config, createLogger("silent"), database, {
        openStore: (db) => gate.around(openEventStore(config.eventStoreUrl, db)),
      });
      const client = await first.createClient();
      key = client.key;
      const created = await first.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await second?.stop();
      await first?.stop();
      await simulator?.close();
    });

    const storeCard = async () => {
      const created = await first.request("POST", "/v1/payment-methods", {
        key,
        body: { card: { number: "4242424242424242", expMonth: 12, expYear: 2030 }, userId: "user_42" },
      });
      expect(created.status, created.text).toBe(201);
      return String(created.body.id);
    };
    const pay = (url: string, paymentMethodId: string, headers: Record<string, string> = {}) =>
      apiRequest(url, "POST", "/v1/transactions/sale", {
        key,
        headers,
        body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_42", paymentMethodId },
      });
    const deleteCard = (url: string, paymentMethodId: string) => apiRequest(url, "DELETE", `/v1/payment-methods/${paymentMethodId}`, { key });
    /** The recorded failure of a payment the deletion overtook: 404, and nothing sent to the processor. */
    const expectOvertaken = (answer: ApiResponse, paymentMethodId: string) => {
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body.code).toBe("not_found");
      const transaction = answer.body.transaction as Json;
      expect(transaction).toMatchObject({ status: "failed", failureReason: "payment_method_deleted", paymentMethodId });
      expect(simulator.received(transaction.id)).toBeUndefined();
      return transaction;
    };

    it("a payment whose intent lands after the deletion's 204 is recorded failed, payment_method_deleted, answers 404 and sends nothing", async () => {
      const paymentMethodId = await storeCard();
      const held = gate.close();
      const headers = { "idempotency-key": `overtaken-${paymentMethodId}` };
      // The payment has found the card; its intent waits while the other instance deletes it.
      const paying = pay(second.url, paymentMethodId, headers);
      await held.arrived;
      expect((await deleteCard(first.url, paymentMethodId)).status).toBe(204);
      held.release();
      const transaction = expectOvertaken(await paying, paymentMethodId);

      for (const url of [first.url, second.url]) {
        const read = await apiRequest(url, "GET", `/v1/transactions/${transaction.id}`, { key });
        expect(read.body).toMatchObject({ status: "failed", failureReason: "payment_method_deleted" });
      }
      const replay = await pay(second.url, paymentMethodId, headers);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(expectOvertaken(replay, paymentMethodId)).toEqual(transaction);
    });

    it(`payments racing a deletion on both instances: approved, or failed and 404 with nothing sent; after its 204 nothing is recorded or sent (${ROUNDS} rounds)`, async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const paymentMethodId = await storeCard();
        const [payOn, deleteOn] = round % 2 === 0 ? [second.url, first.url] : [first.url, second.url];
        const racing = Array.from({ length: RACING_PAYMENTS }, (_, index) => pay(index % 2 === 0 ? payOn : deleteOn, paymentMethodId));
        await new Promise((resolve) => setTimeout(resolve, round));
        const deleted = await deleteCard(deleteOn, paymentMethodId);
        expect(deleted.status).toBe(204);
        const after = await Promise.all([pay(first.url, paymentMethodId), pay(second.url, paymentMethodId)]);

        const charged = new Map(simulator.transactions().map((charge) => [charge.transactionId, charge]));
        for (const answer of await Promise.all(racing)) {
          if (answer.status === 201) {
            expect(answer.body.status).toBe("approved");
            // Its card was opened before the key's erasure: it was under way before the deletion.
            expect(charged.get(answer.body.id)?.code).toBe("00");
          } else if (answer.body.transaction) {
            expectOvertaken(answer, paymentMethodId);
          } else {
            // The deletion came before the payment found the card: nothing recorded.
            expect(answer.status, answer.text).toBe(404);
          }
        }
        // After the 204 a payment finds no card: nothing is recorded, so nothing is sent.
        for (const answer of after) {
          expect(answer.status, answer.text).toBe(404);
          expect(answer.body.transaction).toBeUndefined();
        }
      }
    }, 120_000);
  });
}
