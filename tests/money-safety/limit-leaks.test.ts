import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CommandContext, createRegistries } from "../../src/commands/context.ts";
import { payments } from "../../src/commands/streams.ts";
import { reserveLimit } from "../../src/commands/limits.ts";
import { safeCard } from "../../src/domain/cards.ts";
import { openEventStore } from "../../src/eventstore/open.ts";
import { newId } from "../../src/ids.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { clockFromNoon } from "../support/clock.ts";
import { Secret } from "../../src/domain/secret.ts";

const limit = { currency: "USD", dailyAmount: 100_000 };
/** The service's clock: the daily limits here reset at midnight UTC. */
const clock = clockFromNoon();

for (const target of testDatabaseTargets()) {
  describe(`limit reservations never leak, on ${target}`, () => {
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    let hostConfigurationId: string;

    beforeAll(async () => {
      api = await startTestService(target, { LIMIT_SWEEP_INTERVAL_MS: "100", LIMIT_SWEEP_GRACE_MS: "1000" }, { now: clock.now });
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status).toBe(201);
      hostConfigurationId = created.body.id;
      expect((await api.request("PUT", `/v1/clients/${acme.clientId}/limits`, { body: { limits: [limit] } })).status).toBe(200);
    });
    afterAll(() => api?.stop());

    const todayUsage = async (client = acme) => {
      const view = await api.request("GET", `/v1/clients/${client.clientId}`);
      const { usedAmount, usedCount } = view.body.limits[0].today;
      return { usedAmount, usedCount };
    };
    const sale = (amount: number, number: string, { client = acme, idempotencyKey }: { client?: typeof acme; idempotencyKey?: string } = {}) =>
      api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
        body: { processor: "processor_a", amount, currency: "USD", card: { number, expMonth: 12, expYear: 2030, cvc: "123" }, userId: "u1" },
      });

    it("gives back what a crash left reserved, and only that: usage equals the sum of what counts", async () => {
      // What a process that died at the wrong moment leaves behind, written as it would have.
      const store = openEventStore(undefined, api.database.db);
      const context: CommandContext = {
        store,
        now: clock.now,
        registries: createRegistries(store),
        metadata: { actor: { role: "system" } },
      };
      // Died after reserving, before recording the intent.
      expect((await reserveLimit(context, { clientId: acme.clientId, transactionId: newId(), amount: 3000, limit })).ok).toBe(true);
      // Died after recording a decline, before giving its reservation back.
      const declinedId = newId();
      expect((await reserveLimit(context, { clientId: acme.clientId, transactionId: declinedId, amount: 2000, limit })).ok).toBe(true);
      const now = clock.now().toISOString();
      // Recorded with only the metadata a crashed instance's intent held.
      const crashed = { ...context, metadata: {} };
      const initiated = await payments.handle(crashed, declinedId, {
        type: "InitiateTransaction",
        transactionType: "sale",
        transactionId: declinedId,
        amount: 2000,
        currency: "USD",
        clientId: acme.clientId,
        userId: "u1",
        processor: "processor_a",
        hostConfigurationId,
        hostConfigurationVersion: 1,
        card: safeCard(new Secret("4000000000000002"), 12, 2030, "fingerprint"),
        reference: null,
        metadata: {},
        now,
      }, { metadata: { limitReservation: { currency: "USD", day: now.slice(0, 10), amount: 2000 } } });
      expect(initiated.ok).toBe(true);
      const declined = await payments.handle(crashed, declinedId, {
        type: "RecordOutcome",
        transactionId: declinedId,
        outcome: { status: "declined", declineCode: "card_declined", processorResponse: null },
        now,
      });
      expect(declined.ok).toBe(true);

      // What counts: an approved sale, and one whose outcome is still unknown.
      expect((await sale(1000, "4242424242424242")).status).toBe(201);
      expect((await sale(500, "4000000000000408")).status).toBe(504);
      // 6,500 were reserved in 4 reservations; 3,000 and 2,000 of them count for nothing.
      await vi.waitFor(async () => expect(await todayUsage()).toEqual({ usedAmount: 1500, usedCount: 2 }), {
        timeout: 15_000,
        interval: 100,
      });
      // And it stays so: nothing that counts is ever given back.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await todayUsage()).toEqual({ usedAmount: 1500, usedCount: 2 });
    });

    it("a retry of a request whose intent was never recorded reserves once: what the first attempt took is given back", async () => {
      const globex = await api.createClient("Globex");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: globex.clientId },
      });
      expect(configured.status).toBe(201);
      expect((await api.request("PUT", `/v1/clients/${globex.clientId}/limits`, { body: { limits: [limit] } })).status).toBe(200);
      // The store refuses these intents: each first attempt reserves, binds its key, and fails before its intent.
      const { db } = api.database;
      await sql`create function refuse_intent() returns trigger language plpgsql as $$
        begin raise exception 'intent refused by the test'; end $$`.execute(db);
      await sql`create trigger refuse_intent before insert on events for each row
        when (new.type = 'TransactionInitiated.v1' and new.data->>'clientId' = ${sql.lit(globex.clientId)})
        execute function refuse_intent()`.execute(db);
      const approvedKey = `approved-${Math.random()}`;
      const declinedKey = `declined-${Math.random()}`;
      try {
        expect((await sale(1200, "4242424242424242", { client: globex, idempotencyKey: approvedKey })).status).toBe(500);
        expect((await sale(800, "4000000000000002", { client: globex, idempotencyKey: declinedKey })).status).toBe(500);
      } finally {
        await sql`drop trigger refuse_intent on events`.execute(db);
        await sql`drop function refuse_intent()`.execute(db);
      }
      const approved = await sale(1200, "4242424242424242", { client: globex, idempotencyKey: approvedKey });
      expect(approved.status).toBe(201);
      const declined = await sale(800, "4000000000000002", { client: globex, idempotencyKey: declinedKey });
      expect(declined.status).toBe(402);
      expect(declined.body.transaction.id).not.toBe(approved.body.id);

      // Four reservations were made; only the approved sale's retry counts.
      await vi.waitFor(async () => expect(await todayUsage(globex)).toEqual({ usedAmount: 1200, usedCount: 1 }), {
        timeout: 15_000,
        interval: 100,
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(await todayUsage(globex)).toEqual({ usedAmount: 1200, usedCount: 1 });
    });
  });
}
