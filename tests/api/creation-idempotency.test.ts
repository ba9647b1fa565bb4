import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { answeredWhileConnectionsToTableEnd } from "../support/lost-connection.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment } from "../support/webhook-receiver.ts";

/**
 * A creating POST under an Idempotency-Key makes one resource, whatever happens to its request: a
 * request whose database connection ends after its append answers 503, and its retry under the
 * same key answers the resource that append made, never a second client, a second webhook
 * endpoint (every event delivered twice) or a second host configuration (the client's payments
 * left without a default), a second API key. The payment method's case is in
 * payment-methods-idempotency.test.ts.
 */
const skip = testDatabaseTargets().includes("postgres") ? undefined : "a connection the server ends needs PostgreSQL: set DATABASE_URL";
if (skip) console.warn(`SKIPPED creations whose request loses its database connection after the append: ${skip}`);

describe.skipIf(skip)("a creation whose database connection ends after its append, retried under its key", () => {
  let api: TestService;
  let acme: Awaited<ReturnType<TestService["createClient"]>>;

  beforeAll(async () => {
    api = await startTestService("postgres", loopbackWebhookEnvironment());
    acme = await api.createClient("Acme");
  });
  afterAll(() => api?.stop());

  const eventsOfType = async (type: string) =>
    (await sql<{ stream_id: string }>`select stream_id from events where type = ${type}`.execute(api.database.db)).rows.map((row) => row.stream_id);

  /** The first answer (503 after the append) and the retry's. */
  async function createThenRetry(table: string, create: () => Promise<{ status: number; text: string; body: Json; headers: Headers }>) {
    const failed = await answeredWhileConnectionsToTableEnd(api.database.url, table, create);
    expect(failed.status, failed.text).toBe(503);
    expect(failed.body.code).toBe("service_unavailable");
    expect(failed.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    const retry = await create();
    expect(retry.status, retry.text).toBe(201);
    return retry;
  }

  it("makes one client", async () => {
    const before = await eventsOfType("ClientRegistered.v1");
    const create = () => api.request("POST", "/v1/clients", { headers: { "idempotency-key": "client-lost" }, body: { name: "Lost Connection Ltd" } });
    const retry = await createThenRetry("clients", create);
    expect(await eventsOfType("ClientRegistered.v1")).toHaveLength(before.length + 1);
    const listed = await api.request("GET", "/v1/clients?limit=100");
    expect(listed.body.data.filter((client: Json) => client.name === "Lost Connection Ltd").map((client: Json) => client.id)).toEqual([retry.body.id]);
  });

  it("makes one API key, and never answers the key itself again", async () => {
    const before = await eventsOfType("ApiKeyIssued.v1");
    const create = () => api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { headers: { "idempotency-key": "api-key-lost" }, body: {} });
    const retry = await createThenRetry("clients", create);
    expect(await eventsOfType("ApiKeyIssued.v1")).toHaveLength(before.length + 1);
    expect(retry.body.key).toBeNull();
    const listed = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys`);
    expect(listed.body.data.map((key: Json) => key.id)).toEqual([retry.body.id, acme.keyId]);
  });

  it("makes one webhook endpoint, and answers its signing secret", async () => {
    const body = { url: "http://127.0.0.1:9/lost", events: ["*"] };
    const create = () => api.request("POST", "/v1/webhook-endpoints", { key: acme.key, headers: { "idempotency-key": "endpoint-lost" }, body });
    const retry = await createThenRetry("webhook_endpoints", create);
    expect(await eventsOfType("WebhookEndpointCreated.v1")).toEqual([expect.stringContaining(retry.body.id)]);
    expect(retry.body.secret).toMatch(/^whsec_/);
    const listed = await api.request("GET", "/v1/webhook-endpoints", { key: acme.key });
    expect(listed.body.data.map((endpoint: Json) => endpoint.id)).toEqual([retry.body.id]);
  });

  it("answers 404 when the webhook endpoint its key made was deleted before the retry", async () => {
    const body = { url: "http://127.0.0.1:9/deleted", events: ["*"] };
    const create = () => api.request("POST", "/v1/webhook-endpoints", { key: acme.key, headers: { "idempotency-key": "endpoint-deleted" }, body });
    const before = await eventsOfType("WebhookEndpointCreated.v1");
    const failed = await answeredWhileConnectionsToTableEnd(api.database.url, "webhook_endpoints", create);
    expect(failed.status, failed.text).toBe(503);
    const made = (await eventsOfType("WebhookEndpointCreated.v1")).filter((streamId) => !before.includes(streamId));
    expect(made).toHaveLength(1);
    const endpointId = made[0]!.replace(/^webhook-endpoint-/, "");
    // Its projection lost its connection too, and resumes within its retry delay.
    await vi.waitFor(async () => expect((await api.request("GET", `/v1/webhook-endpoints/${endpointId}`, { key: acme.key })).status).toBe(200), {
      timeout: 10_000,
      interval: 100,
    });
    const deleted = await api.request("DELETE", `/v1/webhook-endpoints/${endpointId}`, { key: acme.key });
    expect(deleted.status, deleted.text).toBe(204);
    const retry = await create();
    expect(retry.status, retry.text).toBe(404);
    expect(retry.body.code).toBe("not_found");
    expect(await eventsOfType("WebhookEndpointCreated.v1")).toHaveLength(before.length + 1);
  });

  it("makes one host configuration, the client's default", async () => {
    const body = { ...validBodies.processor_b, clientId: acme.clientId };
    const create = () => api.request("POST", "/v1/host-configurations/processor_b", { headers: { "idempotency-key": "configuration-lost" }, body });
    const retry = await createThenRetry("host_configurations", create);
    expect(retry.body.isDefault).toBe(true);
    const listed = await api.request("GET", `/v1/host-configurations/processor_b?clientId=${acme.clientId}`);
    expect(listed.body.data.map((configuration: Json) => configuration.id)).toEqual([retry.body.id]);
    const sale = await api.request("POST", "/v1/transactions/sale", {
      key: acme.key,
      body: { processor: "processor_b", amount: 1000, currency: "USD", userId: "user_1", card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } },
    });
    expect(sale.status, sale.text).toBe(201);
  });
});

for (const target of testDatabaseTargets()) {
  describe(`an API key creation that fails after its append, retried under its key, on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api.stop());

    it("issues one key: the retry answers its id, name and createdAt with key null, as a replay would", async () => {
      const acme = await api.createClient("Acme");
      const { db } = api.database;
      const issued = async () =>
        (
          await sql<{ key_id: string; occurred_at: string }>`select data->>'keyId' as key_id, data->>'occurredAt' as occurred_at from events
            where type = 'ApiKeyIssued.v1' and stream_id = ${`client-${acme.clientId}`} order by position`.execute(db)
        ).rows.filter((row) => row.key_id !== acme.keyId);
      const create = () =>
        api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { headers: { "idempotency-key": "api-key-failed" }, body: { name: "retried" } });
      // The key's event is appended, then the read model refuses it: the request answers 500.
      await sql`create function refuse_api_key() returns trigger language plpgsql as $$
        begin raise exception 'api key refused by the test'; end $$`.execute(db);
      await sql`create trigger refuse_api_key before insert on api_keys for each row execute function refuse_api_key()`.execute(db);
      try {
        const failed = await create();
        expect(failed.status, failed.text).toBe(500);
        expect(failed.body.code).toBe("internal_error");
      } finally {
        await sql`drop trigger refuse_api_key on api_keys`.execute(db);
        await sql`drop function refuse_api_key()`.execute(db);
      }
      const [made, ...more] = await issued();
      expect(made).toBeDefined();
      expect(more).toEqual([]);

      const retry = await create();
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body).toEqual({ id: made!.key_id, key: null, name: "retried", createdAt: made!.occurred_at });
      expect(await issued()).toEqual([made]);
      const replay = await create();
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(retry.body);
      const listed = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys`);
      expect(listed.body.data.map((key: Json) => key.id).sort()).toEqual([acme.keyId, made!.key_id].sort());
    });
  });
}
