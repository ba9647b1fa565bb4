import type { Kysely } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistries } from "../../src/commands/context.ts";
import { clients } from "../../src/commands/streams.ts";
import type { Database } from "../../src/db/schema.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { createLogger } from "../../src/logger.ts";
import { clientsProjection } from "../../src/projections/clients/clients-projection.ts";
import { verifyReadModel } from "../../src/projections/verify-read-model.ts";
import { type Service, startService } from "../../src/service.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, type TestService, testConfig } from "../support/service.ts";
import { whileProjectionStalled } from "../support/stalled-projection.ts";
import { clockFromNoon } from "../support/clock.ts";

const whileClientsProjectionStalled = (db: Kysely<Database>, body: () => Promise<void>) =>
  whileProjectionStalled(db, clientsProjection.name, body);

/** The services' clock: the daily limits here reset at midnight UTC. */
const fromNoon = { now: clockFromNoon().now };

for (const target of testDatabaseTargets()) {
  describe(`keys and limits while the clients projection is stalled, on ${target}`, () => {
    let api: TestService;
    let second: Service | undefined;
    beforeAll(async () => {
      api = await startTestService(target, {}, fromNoon);
    });
    afterAll(async () => {
      await second?.stop();
      await api.stop();
    });

    const at = (url: string) => ({
      request: (method: string, path: string, key: string, body?: unknown) =>
        fetch(`${url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { code?: string } })),
    });
    const sale = (url: string, key: string, amount: number) =>
      at(url).request("POST", "/v1/transactions/sale", key, {
        processor: "processor_a",
        amount,
        currency: "USD",
        card: approvedCard,
        userId: "u",
      });

    /** A client with a key and a processor_a configuration, made while the projections run. */
    async function payingClient() {
      const client = await api.createClient("Stalled");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId },
      });
      expect(configured.status).toBe(201);
      return client;
    }

    /** Once the projection runs again, it catches up without undoing a command's rows. */
    async function expectProjectionToAgree() {
      const verdict = await verifyReadModel({
        db: api.database.db,
        store: new PostgresEventStore(api.database.db),
        projection: clientsProjection,
        settleTimeoutMs: 30_000,
      });
      expect(verdict).toMatchObject({ status: "compared", differences: [] });
    }

    it("a revoked key fails with 401 at once", async () => {
      const client = await payingClient();
      await whileClientsProjectionStalled(api.database.db, async () => {
        expect((await api.request("GET", `/v1/clients/${client.clientId}`, { key: client.key })).status).toBe(200);
        const revoked = await api.request("DELETE", `/v1/clients/${client.clientId}/api-keys/${client.keyId}`);
        expect(revoked.status).toBe(204);
        const after = await api.request("GET", `/v1/clients/${client.clientId}`, { key: client.key });
        expect(after).toMatchObject({ status: 401, body: { code: "invalid_credentials" } });
        expect((await sale(api.url, client.key, 100)).status).toBe(401);
      });
      await expectProjectionToAgree();
      expect((await api.request("GET", `/v1/clients/${client.clientId}`, { key: client.key })).status).toBe(401);
    }, 60_000);

    it("a client and a key created meanwhile work at once", async () => {
      await whileClientsProjectionStalled(api.database.db, async () => {
        const created = await api.request("POST", "/v1/clients", { body: { name: "Newcomer" } });
        expect(created).toMatchObject({ status: 201, body: { name: "Newcomer", limits: [] } });
        const issued = await api.request("POST", `/v1/clients/${created.body.id}/api-keys`, { body: {} });
        expect(issued.status).toBe(201);
        const read = await api.request("GET", `/v1/clients/${created.body.id}`, { key: issued.body.key });
        expect(read).toMatchObject({ status: 200, body: { id: created.body.id } });
      });
      await expectProjectionToAgree();
    }, 60_000);

    it("a new limit holds for the next sale at once", async () => {
      const client = await payingClient();
      await whileClientsProjectionStalled(api.database.db, async () => {
        const set = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
          body: { limits: [{ currency: "USD", maxAmountPerTransaction: 1000 }] },
        });
        expect(set).toMatchObject({ status: 200, body: { limits: [{ currency: "USD", maxAmountPerTransaction: 1000 }] } });
        expect((await sale(api.url, client.key, 1001)).body.code).toBe("limit_exceeded");
        expect((await sale(api.url, client.key, 1000)).status).toBe(201);

        await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
          body: { limits: [{ currency: "USD", dailyAmount: 1500 }] },
        });
        const over = await sale(api.url, client.key, 501);
        expect(over).toMatchObject({ status: 402, body: { code: "limit_exceeded" } });
        expect((await sale(api.url, client.key, 500)).status).toBe(201);
      });
      await expectProjectionToAgree();
      expect((await sale(api.url, client.key, 1)).status).toBe(402);
    }, 60_000);

    it("a command first applies what an instance appended before it died, so nothing it left behind is skipped", async () => {
      const client = await payingClient();
      await whileClientsProjectionStalled(api.database.db, async () => {
        // An instance appended this revocation and died before it could apply it.
        const revocation = { type: "RevokeApiKey" as const, keyId: client.keyId, now: new Date().toISOString() };
        const store = new PostgresEventStore(api.database.db);
        expect(await clients.handle({ store, metadata: {}, registries: createRegistries(store) }, client.clientId, revocation)).toMatchObject({ ok: true });
        expect((await api.request("GET", `/v1/clients/${client.clientId}`, { key: client.key })).status).toBe(200);

        const set = await api.request("PUT", `/v1/clients/${client.clientId}/limits`, { body: { limits: [{ currency: "USD" }] } });
        expect(set.status).toBe(200);
        expect((await api.request("GET", `/v1/clients/${client.clientId}`, { key: client.key })).status).toBe(401);
      });
      await expectProjectionToAgree();
    }, 60_000);

    const heldHorizonSkip = target === "postgres" ? undefined : "PGlite runs one transaction at a time: none can stay open beside a command";
    if (heldHorizonSkip) console.warn(`SKIPPED verify beside an open transaction: ${heldHorizonSkip}`);
    it.skipIf(heldHorizonSkip)("verify never compares rows a command applied before the log lets a reader see their event", async () => {
      const client = await payingClient();
      // An open transaction that took an id: no reader sees an event committed after it began.
      const holder = new pg.Client({ connectionString: api.database.url });
      await holder.connect();
      try {
        await holder.query("begin");
        await holder.query("select pg_current_xact_id()");
        expect((await api.request("DELETE", `/v1/clients/${client.clientId}/api-keys/${client.keyId}`)).status).toBe(204);
        const verdict = await verifyReadModel({
          db: api.database.db,
          store: new PostgresEventStore(api.database.db),
          projection: clientsProjection,
          settleTimeoutMs: 1_000,
        });
        expect(verdict.status).toBe("unsettled");
      } finally {
        await holder.end();
      }
      await expectProjectionToAgree();
    }, 60_000);

    const twoInstancesSkip = target === "postgres" ? undefined : "PGlite serves one process: two instances need DATABASE_URL";
    if (twoInstancesSkip) console.warn(`SKIPPED stalled clients projection across two instances: ${twoInstancesSkip}`);
    it.skipIf(twoInstancesSkip)("revocation and limits set on one instance hold on another at once", async () => {
      const client = await payingClient();
      const spare = await api.request("POST", `/v1/clients/${client.clientId}/api-keys`, { body: {} });
      second = await startService(testConfig(api.database.url), createLogger("silent"), undefined, fromNoon);
      const other = at(second.url);
      await whileClientsProjectionStalled(api.database.db, async () => {
        await api.request("PUT", `/v1/clients/${client.clientId}/limits`, {
          body: { limits: [{ currency: "USD", maxAmountPerTransaction: 1000 }] },
        });
        expect((await sale(second!.url, client.key, 1001)).body.code).toBe("limit_exceeded");
        expect((await sale(second!.url, client.key, 1000)).status).toBe(201);

        expect((await other.request("GET", `/v1/clients/${client.clientId}`, client.key)).status).toBe(200);
        expect((await api.request("DELETE", `/v1/clients/${client.clientId}/api-keys/${client.keyId}`)).status).toBe(204);
        const after = await other.request("GET", `/v1/clients/${client.clientId}`, client.key);
        expect(after).toMatchObject({ status: 401, body: { code: "invalid_credentials" } });
        expect((await other.request("GET", `/v1/clients/${client.clientId}`, spare.body.key)).status).toBe(200);
      });
      await expectProjectionToAgree();
    }, 60_000);
  });
}
