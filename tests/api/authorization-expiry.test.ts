import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSimulator } from "../../src/processors/simulator/server.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startProcessorRelay } from "../support/processor-relay.ts";
import { everyProcessorAt, startTestService, type TestService } from "../support/service.ts";

const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };
const TTL_SECONDS = 3_600;

for (const target of testDatabaseTargets()) {
  describe(`authorization expiry, on ${target}`, () => {
    let current = new Date("2026-06-10T12:00:00Z");
    const advance = (seconds: number) => (current = new Date(current.getTime() + seconds * 1000));
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      api = await startTestService(
        target,
        { LIFECYCLE_CHECK_INTERVAL_MS: "50", AUTHORIZATION_TTL_SECONDS: String(TTL_SECONDS) },
        { now: () => current },
      );
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status).toBe(201);
      const limits = [{ currency: "USD", dailyAmount: 1_000_000 }];
      expect((await api.request("PUT", `/v1/clients/${acme.clientId}/limits`, { body: { limits } })).status).toBe(200);
    });
    afterAll(() => api?.stop());

    const post = (path: string, body: object) => api.request("POST", `/v1/transactions/${path}`, { key: acme.key, body });
    const authorize = async (amount: number) => {
      const response = await post("authorization", { processor: "processor_a", amount, currency: "USD", card, userId: "u1" });
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    const transaction = async (id: string) => (await api.request("GET", `/v1/transactions/${id}`, { key: acme.key })).body;
    const usedToday = async () => (await api.request("GET", `/v1/clients/${acme.clientId}`)).body.limits[0].today.usedAmount;
    const childrenOf = async (id: string) =>
      (await api.request("GET", `/v1/transactions?limit=100`, { key: acme.key })).body.data.filter(
        (child: { parentTransactionId: string | null }) => child.parentTransactionId === id,
      );

    it("voids what is left of an authorization once AUTHORIZATION_TTL_SECONDS have passed, gives its limit back, and refuses a capture", async () => {
      const untouched = await authorize(5000);
      const used = await usedToday();
      advance(TTL_SECONDS - 1);
      await sleep(300);
      expect((await transaction(untouched)).expiredAt).toBeNull();

      advance(2);
      await vi.waitFor(async () => expect((await transaction(untouched)).voided).toBe(true), { timeout: 10_000, interval: 50 });
      const expired = await transaction(untouched);
      expect(expired.expiredAt).not.toBeNull();
      const [expiryVoid] = await childrenOf(untouched);
      expect(expiryVoid).toMatchObject({ type: "void", status: "approved", amount: 5000, parentTransactionId: untouched });
      await vi.waitFor(async () => expect(await usedToday()).toBe(used - 5000), { timeout: 10_000, interval: 50 });

      const capture = await post("capture", { transactionId: untouched });
      expect(capture.status).toBe(409);
      expect(capture.body.code).toBe("invalid_transaction_state");
    });

    it("voids only the rest of a partly captured authorization, whose captures keep counting toward the limit while the rest is given back", async () => {
      const partly = await authorize(8000);
      expect((await post("capture", { transactionId: partly, amount: 3000 })).status).toBe(201);
      const used = await usedToday();
      advance(TTL_SECONDS + 1);
      await vi.waitFor(async () => expect((await transaction(partly)).expiredAt).not.toBeNull(), { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => {
        const voids = (await childrenOf(partly)).filter((child: { type: string }) => child.type === "void");
        expect(voids).toMatchObject([{ status: "approved", amount: 5000 }]);
      }, { timeout: 10_000, interval: 50 });
      await vi.waitFor(async () => expect(await usedToday()).toBe(used - 5000), { timeout: 10_000, interval: 50 });
      expect((await post("capture", { transactionId: partly, amount: 100 })).status).toBe(409);
    });

    it("expires each authorization exactly once, however many passes see it due", async () => {
      const once = await authorize(1200);
      advance(TTL_SECONDS + 1);
      await vi.waitFor(async () => expect((await transaction(once)).expiredAt).not.toBeNull(), { timeout: 10_000, interval: 50 });
      await sleep(500);
      const { rows } = await sql<{ count: string }>`
        select count(*) as count from events where type = 'AuthorizationExpired.v1' and data->>'transactionId' = ${once}`.execute(
        api.database.db,
      );
      expect(Number(rows[0]!.count)).toBe(1);
      expect(await childrenOf(once)).toHaveLength(1);
    });
  });

  describe(`an expiry's void the processor never received, on ${target}`, () => {
    it("is sent again until the processor voids the authorization: its funds are released there too", { timeout: 60_000 }, async () => {
      let current = new Date("2026-06-10T12:00:00Z");
      const advance = (seconds: number) => (current = new Date(current.getTime() + seconds * 1000));
      const simulator = await startSimulator();
      let dropped = 0;
      // The first void is lost on the way: the processor never sees it.
      const relay = await startProcessorRelay(simulator.url, async () => {}, {
        beforeForward: async ({ path }) => {
          if (path.endsWith("/void") && dropped++ === 0) throw new Error("request lost");
        },
      });
      const api = await startTestService(
        target,
        { ...everyProcessorAt(relay.url), LIFECYCLE_CHECK_INTERVAL_MS: "50", AUTHORIZATION_TTL_SECONDS: String(TTL_SECONDS) },
        { now: () => current },
      );
      try {
        const acme = await api.createClient("Acme");
        const created = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: { ...validBodies.processor_a, clientId: acme.clientId },
        });
        expect(created.status).toBe(201);
        const authorized = await api.request("POST", "/v1/transactions/authorization", {
          key: acme.key,
          body: { processor: "processor_a", amount: 5000, currency: "USD", card, userId: "u1" },
        });
        expect(authorized.status).toBe(201);
        const id = authorized.body.id as string;
        const voidsOf = async () =>
          (await api.request("GET", "/v1/transactions?limit=100", { key: acme.key })).body.data.filter(
            (child: { type: string; parentTransactionId: string | null }) => child.type === "void" && child.parentTransactionId === id,
          );

        advance(TTL_SECONDS + 1);
        await vi.waitFor(() => expect(dropped).toBe(1), { timeout: 10_000, interval: 50 });
        await vi.waitFor(async () => expect(await voidsOf()).toMatchObject([{ status: "pending" }]), { timeout: 10_000, interval: 50 });
        // Past the processor's own timeout: its "not found" for the void is final.
        advance(600);
        await vi.waitFor(async () => expect(await voidsOf()).toMatchObject([{ status: "approved" }]), { timeout: 10_000, interval: 50 });
        const authorization = (await api.request("GET", `/v1/transactions/${id}`, { key: acme.key })).body;
        expect(authorization).toMatchObject({ status: "approved", voided: true });
        expect(authorization.expiredAt).not.toBeNull();
        expect(simulator.transactions().find((recorded) => recorded.transactionId === id)).toMatchObject({ code: "00", voided: true });
      } finally {
        await api.stop();
        await relay.close();
        await simulator.close();
      }
    });
  });
}
