import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { type Simulator, startSimulator } from "../../src/processors/simulator/server.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type FakeAnswer, type FakeProcessor, startFakeProcessor } from "../support/fake-processor.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { everyProcessorAt, type Json, startTestService, type TestService } from "../support/service.ts";
import { clockFromNoon } from "../support/clock.ts";

/**
 * Releasing the rest of an authorization (API.md, Transactions): a void of an authorization with
 * captures, and a final capture, let go of what is left at the processor, as a void transaction
 * of its own, and give it back to the client's limit.
 */

const eventually = { timeout: 30_000, interval: 50 };

/** The voids of a transaction, as its payment's events initiated them, each as it stands. */
async function voidsIn(api: TestService, key: string, parentId: string): Promise<Json[]> {
  const events = (await api.request("GET", `/v1/transactions/${parentId}/events`, { key })).body.events as Json[];
  const ids = events
    .filter((event) => event.type === "TransactionInitiated.v1" && event.data.type === "void" && event.data.parentTransactionId === parentId)
    .map((event) => String(event.data.transactionId));
  return Promise.all(ids.map(async (id) => (await api.request("GET", `/v1/transactions/${id}`, { key })).body as Json));
}
const DAILY_LIMIT = 1_000_000;
/** The service's clock: the daily limits here reset at midnight UTC. */
const clock = clockFromNoon();

for (const target of testDatabaseTargets()) {
  describe(`releasing the rest of an authorization, on the simulator (${target})`, { timeout: 120_000 }, () => {
    let simulator: Simulator;
    let api: TestService;
    let client: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      simulator = await startSimulator();
      api = await startTestService(target, everyProcessorAt(simulator.url), { now: clock.now });
      client = await api.createClient("Acme");
      for (const processor of processors) {
        const created = await api.request("POST", `/v1/host-configurations/${processor}`, {
          body: { ...validBodies[processor], clientId: client.clientId },
        });
        expect(created.status).toBe(201);
      }
      const limits = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
        body: { limits: [{ currency: "USD", dailyAmount: DAILY_LIMIT }] },
      });
      expect(limits.status).toBe(200);
    });
    afterAll(async () => {
      await api.stop();
      await simulator.close();
    });

    const authorize = async (processor: string = "processor_a", amount = 1000) => {
      const response = await api.request("POST", "/v1/transactions/authorization", {
        key: client.key,
        body: { processor, amount, currency: "USD", card: approvedCard, userId: "user_1" },
      });
      expect(response.status).toBe(201);
      return response.body as Json;
    };
    const post = (operation: "capture" | "void", body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      api.request("POST", `/v1/transactions/${operation}`, { key: client.key, body, headers });
    const read = async (id: string) => (await api.request("GET", `/v1/transactions/${id}`, { key: client.key })).body as Json;
    const voidsOf = (id: string) => voidsIn(api, client.key, id);
    const usedToday = async () => (await api.request("GET", `/v1/clients/${client.clientId}`)).body.limits[0].today.usedAmount as number;
    /** What the processor still holds of the authorization, as it counts it. */
    const heldAtProcessor = (id: string) => simulator.transactions().find((t) => t.transactionId === id)?.heldAmount;

    it.each(processors)("%s: a void after a partial capture releases the uncaptured rest, captures untouched, and gives it back to the limit", async (processor) => {
      const authorization = await authorize(processor);
      const capture = await post("capture", { transactionId: authorization.id, amount: 300 });
      expect(capture.status).toBe(201);
      expect(heldAtProcessor(authorization.id)).toBe(700);
      const usedBefore = await usedToday();

      const released = await post("void", { transactionId: authorization.id });
      expect(released.status).toBe(201);
      expect(released.body).toMatchObject({ type: "void", status: "approved", amount: 700, parentTransactionId: authorization.id });
      expect(await read(authorization.id)).toMatchObject({ voided: true, capturedAmount: 300, amount: 1000 });
      expect(await read(capture.body.id)).toEqual(capture.body);
      expect(heldAtProcessor(authorization.id)).toBe(0);
      expect(simulator.transactions().find((t) => t.transactionId === capture.body.id)).toMatchObject({ voided: false, amount: 300 });
      await vi.waitFor(async () => expect(await usedToday()).toBe(usedBefore - 700), eventually);
    });

    it("a void of an authorization with nothing left to capture is 409 invalid_transaction_state", async () => {
      const authorization = await authorize();
      expect((await post("capture", { transactionId: authorization.id })).status).toBe(201);
      const refused = await post("void", { transactionId: authorization.id });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe("invalid_transaction_state");
      expect(await voidsOf(authorization.id)).toEqual([]);
      expect(heldAtProcessor(authorization.id)).toBe(0);
    });

    it("a final capture releases the rest as a void created once the capture is approved", async () => {
      const authorization = await authorize("processor_d");
      const usedBefore = await usedToday();
      const capture = await post("capture", { transactionId: authorization.id, amount: 400, final: true });
      expect(capture.status).toBe(201);
      expect(capture.body).toMatchObject({ type: "capture", status: "approved", amount: 400 });

      const [release, ...others] = await voidsOf(authorization.id);
      expect(others).toEqual([]);
      expect(release).toMatchObject({ type: "void", status: "approved", amount: 600, parentTransactionId: authorization.id });
      const events = (await api.request("GET", `/v1/transactions/${authorization.id}/events`)).body.events as Json[];
      const approvedAt = events.findIndex((event) => event.type === "TransactionApproved.v1" && event.data.transactionId === capture.body.id);
      const releasedAt = events.findIndex((event) => event.type === "TransactionInitiated.v1" && event.data.transactionId === release.id);
      expect(approvedAt).toBeGreaterThan(0);
      expect(releasedAt).toBeGreaterThan(approvedAt);
      expect(events[releasedAt - 1]).toMatchObject({ type: "AuthorizationReleased.v1", data: { captureTransactionId: capture.body.id, voidTransactionId: release.id } });

      expect(await read(authorization.id)).toMatchObject({ voided: true, capturedAmount: 400 });
      expect(heldAtProcessor(authorization.id)).toBe(0);
      await vi.waitFor(async () => expect(await usedToday()).toBe(usedBefore - 600), eventually);
      expect((await post("capture", { transactionId: authorization.id, amount: 1 })).status).toBe(409);
    });

    it("a final capture of everything releases nothing", async () => {
      const authorization = await authorize();
      expect((await post("capture", { transactionId: authorization.id, final: true })).status).toBe(201);
      expect(await voidsOf(authorization.id)).toEqual([]);
      expect(await read(authorization.id)).toMatchObject({ voided: false, capturedAmount: 1000 });
      expect(heldAtProcessor(authorization.id)).toBe(0);
    });

    it("an idempotent retry of a final capture replays it and releases once", async () => {
      const authorization = await authorize("processor_c");
      const headers = { "idempotency-key": `final-${authorization.id}` };
      const first = await post("capture", { transactionId: authorization.id, amount: 250, final: true }, headers);
      const again = await post("capture", { transactionId: authorization.id, amount: 250, final: true }, headers);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(first.body.id);
      const releases = await voidsOf(authorization.id);
      expect(releases.map((release) => [release.amount, release.status])).toEqual([[750, "approved"]]);
      expect(simulator.transactions().filter((t) => t.operation === "void" && t.parentTransactionId === authorization.id)).toHaveLength(1);
    });

    it("a capture racing a void of the rest never over-captures nor leaves money held", async () => {
      const authorizations = await Promise.all(Array.from({ length: 8 }, (_, index) => authorize(processors[index % 4])));
      await Promise.all(
        authorizations.map(async (authorization, index) => {
          const capture = post("capture", { transactionId: authorization.id, amount: 400, final: index % 2 === 0 });
          const voided = post("void", { transactionId: authorization.id });
          const [captured, released] = await Promise.all([capture, voided]);
          // Refused for the race (a capture still pending, or the rest already released): asked again, once.
          if (released.status === 409) {
            const retried = await post("void", { transactionId: authorization.id });
            expect([201, 409]).toContain(retried.status);
          }
          expect([201, 409]).toContain(captured.status);
        }),
      );
      for (const authorization of authorizations) {
        const view = await read(authorization.id);
        const releases = (await voidsOf(authorization.id)).filter((release) => release.status === "approved");
        expect(releases.length).toBe(1);
        expect(view.capturedAmount + releases[0]!.amount).toBe(1000);
        expect(view).toMatchObject({ voided: true });
        expect(heldAtProcessor(authorization.id)).toBe(0);
        const capturedAtProcessor = simulator
          .transactions({ approved: true })
          .filter((t) => t.operation === "capture" && t.parentTransactionId === authorization.id)
          .reduce((sum, t) => sum + t.amount, 0);
        expect(capturedAtProcessor).toBe(view.capturedAmount);
      }
    });
  });

  describe(`releasing the rest of an authorization, on a processor that fails or does not answer (${target})`, { timeout: 120_000 }, () => {
    let api: TestService | undefined;
    let processor: FakeProcessor | undefined;
    let clientKey = "";
    const service = () => {
      if (!api) throw new Error("the service is not started");
      return api;
    };
    const key = () => clientKey;
    afterEach(async () => {
      await api?.stop();
      await processor?.close();
      api = processor = undefined;
    });

    async function start(submit: (operation: string) => FakeAnswer, inquiry: (nth: number, transactionId: string) => FakeAnswer) {
      processor = await startFakeProcessor({ submit, inquiry });
      api = await startTestService(target, { ...everyProcessorAt(processor.url), PENDING_RESOLVER_INTERVAL_MS: "50" }, { now: clock.now });
      const client = await api.createClient();
      clientKey = client.key;
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configured.status).toBe(201);
      const limits = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
        body: { limits: [{ currency: "USD", dailyAmount: 5000 }] },
      });
      expect(limits.status).toBe(200);
      const running = api;
      const request = (method: string, path: string, body?: unknown) => running.request(method, path, { key: client.key, body });
      const authorization = await request("POST", "/v1/transactions/authorization", {
        processor: "processor_a",
        amount: 1000,
        currency: "USD",
        card: approvedCard,
        userId: "user_1",
      });
      expect(authorization.status).toBe(201);
      const usedToday = async () => (await running.request("GET", `/v1/clients/${client.clientId}`)).body.limits[0].today.usedAmount;
      return { request, authorizationId: String(authorization.body.id), usedToday, calls: processor.calls };
    }

    it("a declined or failed final capture releases nothing", async () => {
      const { request, authorizationId, calls } = await start((operation) => (operation === "capture" ? "refused" : "approved"), () => "not_found");
      const capture = await request("POST", "/v1/transactions/capture", { transactionId: authorizationId, amount: 300, final: true });
      expect(capture.status).toBe(502);
      expect(capture.body.transaction).toMatchObject({ type: "capture", status: "failed" });
      expect(calls.filter((call) => call.operation === "void")).toEqual([]);
      expect((await request("GET", `/v1/transactions/${authorizationId}`)).body).toMatchObject({ voided: false, capturedAmount: 0 });
      expect(await voidsIn(service(), key(), authorizationId)).toEqual([]);
    });

    it("a release whose answer is lost is resolved by the resolver like any void, and gives the rest back then", async () => {
      const { request, authorizationId, usedToday } = await start(
        (operation) => (operation === "void" ? "unknown" : "approved"),
        () => "approved",
      );
      expect((await request("POST", "/v1/transactions/capture", { transactionId: authorizationId, amount: 300 })).status).toBe(201);
      const released = await request("POST", "/v1/transactions/void", { transactionId: authorizationId });
      expect(released.status).toBe(504);
      expect(released.body.transaction).toMatchObject({ type: "void", status: "pending", amount: 700 });
      expect(await usedToday()).toBe(1000);
      await vi.waitFor(async () => {
        const view = (await request("GET", `/v1/transactions/${released.body.transaction.id}`)).body;
        expect(view.status).toBe("approved");
      }, eventually);
      expect((await request("GET", `/v1/transactions/${authorizationId}`)).body).toMatchObject({ voided: true, capturedAmount: 300 });
      await vi.waitFor(async () => expect(await usedToday()).toBe(300), eventually);
    });

    it("a final capture's release the processor never received is sent again by the resolver", async () => {
      let voidsSent = 0;
      const { request, authorizationId, usedToday, calls } = await start(
        (operation) => {
          if (operation !== "void") return "approved";
          voidsSent++;
          return voidsSent === 1 ? "unknown" : "approved";
        },
        () => "not_found",
      );
      const capture = await request("POST", "/v1/transactions/capture", { transactionId: authorizationId, amount: 300, final: true });
      expect(capture.status).toBe(201);
      const [release] = await voidsIn(service(), key(), authorizationId);
      expect(release).toMatchObject({ status: "pending", amount: 700 });
      await vi.waitFor(async () => {
        expect((await request("GET", `/v1/transactions/${release.id}`)).body.status).toBe("approved");
      }, eventually);
      expect(calls.filter((call) => call.operation === "void").map((call) => call.transactionId)).toEqual([release.id, release.id]);
      expect((await request("GET", `/v1/transactions/${authorizationId}`)).body).toMatchObject({ voided: true, capturedAmount: 300 });
      await vi.waitFor(async () => expect(await usedToday()).toBe(300), eventually);
    });
  });
}
