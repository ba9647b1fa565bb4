import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventStore } from "../../src/eventstore/port.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import type { Service } from "../../src/service.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { apiRequest, type ApiResponse, everyProcessorAt, type Json, startTwoInstances, type TestService, type TwoInstances } from "../support/service.ts";

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
 * Stands between the instances and the simulator: notes when each processor call's answer came
 * back, and can hold the next call before it reaches the simulator, as a payment that read the
 * card's key and has not sent it yet.
 */
const HOP_BY_HOP = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);

class ProcessorGate {
  readonly answeredAt: number[] = [];
  #held: { arrived: () => void; released: Promise<void> } | undefined;
  readonly #server: Server;

  constructor(simulatorUrl: string) {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        const held = this.#held;
        if (held) {
          this.#held = undefined;
          held.arrived();
          await held.released;
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === "string" && !HOP_BY_HOP.has(entry[0])),
        );
        const answer = await fetch(`${simulatorUrl}${request.url}`, {
          method: request.method,
          headers,
          ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        this.answeredAt.push(performance.now());
        response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(body);
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Holds the next call; resolves once one waits. */
  hold(): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    this.#held = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
    return { arrived: arrival, release };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
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
    let instances: TwoInstances;
    let first: TestService;
    let second: Service;
    let key: string;
    const gate = new IntentGate();
    let processors: ProcessorGate;
    /** How far the second instance's clock is ahead of the real one. */
    let secondClockAheadMs = 0;

    beforeAll(async () => {
      simulator = await startSimulator();
      processors = new ProcessorGate(simulator.url);
      const processorUrl = await processors.listen();
      instances = await startTwoInstances(target, everyProcessorAt(processorUrl), {
        openStore: (db) => gate.around(new PostgresEventStore(db)),
        now: () => new Date(Date.now() + secondClockAheadMs),
      });
      ({ first, second } = instances);
      const client = await first.createClient();
      key = client.key;
      const created = await first.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await instances?.stop();
      await processors?.close();
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

      // The instance that answered shows it at once (read-your-writes); the other once the shared
      // read model has applied the failure, which may come just after the intent it already shows.
      const readOn = async (url: string) => (await apiRequest(url, "GET", `/v1/transactions/${transaction.id}`, { key })).body;
      expect(await readOn(second.url)).toMatchObject({ status: "failed", failureReason: "payment_method_deleted" });
      await expect.poll(() => readOn(first.url), { timeout: 5_000, interval: 20 }).toMatchObject({ status: "failed", failureReason: "payment_method_deleted" });
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
        processors.answeredAt.length = 0;
        const deleted = await deleteCard(deleteOn, paymentMethodId);
        const deletedAt = performance.now();
        expect(deleted.status).toBe(204);
        // Every charge the processor received had been answered before the deletion's 204.
        for (const answeredAt of processors.answeredAt) expect(answeredAt).toBeLessThan(deletedAt);
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

    it("a deletion waits for a payment that read the card's key until its processor call has returned; payments from then on fail payment_method_deleted, 404, nothing sent", async () => {
      const paymentMethodId = await storeCard();
      const held = processors.hold();
      const paying = pay(second.url, paymentMethodId);
      await held.arrived;
      let deletedAt: number | undefined;
      const deleting = deleteCard(first.url, paymentMethodId).then((answer) => {
        deletedAt = performance.now();
        return answer;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(deletedAt).toBeUndefined();
      // The method is deleting: a payment reads no key, on either instance.
      for (const url of [first.url, second.url]) expectOvertaken(await pay(url, paymentMethodId), paymentMethodId);

      processors.answeredAt.length = 0;
      held.release();
      const paid = await paying;
      expect(paid.status, paid.text).toBe(201);
      expect(simulator.received(paid.body.id)).toBeDefined();
      expect((await deleting).status).toBe(204);
      expect(processors.answeredAt).toHaveLength(1);
      expect(processors.answeredAt[0]).toBeLessThan(deletedAt!);
    });

    it("a payment left pending (its call timed out, or its process died) holds the deletion back (503, retry-after, payments fail unsent) until it is older than any processor call", async () => {
      const paymentMethodId = await storeCard();
      // Its call is held past the processor timeout (2 s here) and never reaches the processor: the
      // intent is recorded, the payment never gets an outcome (the processor finds no such charge).
      const held = processors.hold();
      const paying = pay(first.url, paymentMethodId);
      await held.arrived;
      const [left, refused] = await Promise.all([paying, deleteCard(first.url, paymentMethodId)]);
      expect(left.status, left.text).toBe(504);
      expect(left.body.transaction).toMatchObject({ status: "pending", paymentMethodId });
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers.get("retry-after")).not.toBeNull();
      expect((await first.request("GET", `/v1/payment-methods/${paymentMethodId}`, { key })).status).toBe(200);
      expectOvertaken(await pay(second.url, paymentMethodId), paymentMethodId);

      // Twice the processor timeout and the margin after its intent, the payment counts as abandoned.
      secondClockAheadMs = 2 * 2_000 + 5_000;
      try {
        expect((await deleteCard(second.url, paymentMethodId)).status).toBe(204);
      } finally {
        secondClockAheadMs = 0;
      }
      expect((await first.request("GET", `/v1/payment-methods/${paymentMethodId}`, { key })).status).toBe(404);
      expect((await first.request("GET", `/v1/transactions/${left.body.transaction.id}`, { key })).body.status).toBe("pending");
    }, 30_000);
  });
}
