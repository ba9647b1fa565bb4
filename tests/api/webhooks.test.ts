import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { newId } from "../../src/ids.ts";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { openTestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { apiRequest, type Json, startTestService, TEST_ADMIN_KEY, type TestService, testConfig } from "../support/service.ts";
import {
  loopbackWebhookEnvironment,
  type ReceivedRequest,
  startWebhookReceiver,
  subjectOf,
  typeOf,
  verified,
  type WebhookReceiver,
} from "../support/webhook-receiver.ts";

// Webhook endpoints through the real API, from the contract (docs/api.md "Webhooks",
// "Idempotency", "Errors", and the webhooks decisions). Signatures are checked with the
// standardwebhooks library, never with the project's own code.

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };

type Client = Awaited<ReturnType<TestService["createClient"]>>;

function expectValidationError(response: { status: number; headers: Headers; body: Json; text: string }, path?: string) {
  expect(response.status, response.text).toBe(400);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body.code).toBe("validation_error");
  if (path !== undefined) expect(response.body.errors?.[0]?.path, response.text).toBe(path);
}

function expectNotFound(response: { status: number; body: Json; text: string }) {
  expect(response.status, response.text).toBe(404);
  expect(response.body.code).toBe("not_found");
}

/** Every base table's rows, as text, that contain `needle` (the stored plaintext of a secret would). */
async function tablesContaining(api: TestService, needle: string): Promise<string[]> {
  const { rows: tables } = await sql<{ schema: string; name: string }>`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(api.database.db);
  expect(tables.length).toBeGreaterThan(0);
  const found: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ count: string }>`
      select count(*)::text as count from ${sql.table(`${table.schema}.${table.name}`)} as t
      where position(${needle} in t::text) > 0`.execute(api.database.db);
    if (rows[0]!.count !== "0") found.push(`${table.schema}.${table.name}`);
  }
  return found;
}

for (const target of testDatabaseTargets()) {
  describe(`webhook endpoints, on ${target}`, () => {
    let receiver: WebhookReceiver;
    let api: TestService;
    let acme: Client;
    let globex: Client;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(200);
      api = await startTestService(target, loopbackWebhookEnvironment({ retryBaseMs: 20, dispatchIntervalMs: 50 }));
      acme = await api.createClient("Acme");
      globex = await api.createClient("Globex");
      for (const client of [acme, globex]) {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: { ...validBodies.processor_a, clientId: client.clientId },
        });
        expect(created.status, created.text).toBe(201);
      }
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    const create = (key: string, body: Json, headers: Record<string, string> = {}) =>
      api.request("POST", "/v1/webhook-endpoints", { key, body, headers });
    const createOk = async (client: Client, path: string, events: string[] = ["*"]) => {
      const created = await create(client.key, { url: `${receiver.url}${path}`, events, description: path });
      expect(created.status, created.text).toBe(201);
      return created.body as { id: string; secret: string; url: string };
    };
    const sale = async (client: Client, amount: number) => {
      const response = await api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount, currency: "USD", card, userId: "u1" },
      });
      expect(response.status, response.text).toBe(201);
      return response.body.id as string;
    };
    const list = async (key: string) => {
      const listed = await api.request("GET", "/v1/webhook-endpoints?limit=100", { key });
      expect(listed.status, listed.text).toBe(200);
      return listed.body.data as Json[];
    };
    const approvalOf = (subject: string) => (request: ReceivedRequest) =>
      subjectOf(request) === subject && typeOf(request) === "transaction.approved";

    it("creates an endpoint: 201 with its secret this once; GET and the list never show it; a replay answers the same id with secret null", async () => {
      const body = {
        url: `${receiver.url}/created`,
        events: ["transaction.approved", "transaction.declined"],
        description: "Orders service",
      };
      const created = await create(acme.key, body, { "idempotency-key": "create-endpoint-1" });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ ...body, clientId: acme.clientId, enabled: true });
      expect(created.body.id).toMatch(UUID);
      expect(created.body.createdAt).toMatch(ISO_UTC);
      const secret = created.body.secret as string;
      expect(secret).toMatch(SECRET);
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);

      const fetched = await api.request("GET", `/v1/webhook-endpoints/${created.body.id}`, { key: acme.key });
      expect(fetched.status).toBe(200);
      expect(fetched.body).toMatchObject({ ...body, id: created.body.id, clientId: acme.clientId, enabled: true, createdAt: created.body.createdAt });
      expect(fetched.body.updatedAt).toMatch(ISO_UTC);
      expect(fetched.body.secret ?? null).toBeNull();
      expect(fetched.text).not.toContain(secret.slice("whsec_".length));
      const listed = await api.request("GET", "/v1/webhook-endpoints", { key: acme.key });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((endpoint: Json) => endpoint.id)).toContain(created.body.id);
      expect(listed.body).toHaveProperty("nextCursor");
      expect(listed.text).not.toContain(secret.slice("whsec_".length));

      // The same Idempotency-Key and request: the same status and id, never the secret again.
      const replayed = await create(acme.key, body, { "idempotency-key": "create-endpoint-1" });
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body.id).toBe(created.body.id);
      expect(replayed.body).toHaveProperty("secret", null);
      expect(replayed.text).not.toContain(secret.slice("whsec_".length));
      const reused = await create(acme.key, { ...body, description: "something else" }, { "idempotency-key": "create-endpoint-1" });
      expect(reused.status).toBe(422);
      expect(reused.body.code).toBe("idempotency_key_reused");
      expect((await list(acme.key)).filter((endpoint) => endpoint.url === body.url)).toHaveLength(1);

      // Another creation: another endpoint, another secret.
      const other = await create(acme.key, body);
      expect(other.status).toBe(201);
      expect(other.body.id).not.toBe(created.body.id);
      expect(other.body.secret).toMatch(SECRET);
      expect(other.body.secret).not.toBe(secret);

      // The secret is stored encrypted: its plaintext is in no table and no log line.
      expect(await tablesContaining(api, secret.slice("whsec_".length))).toEqual([]);
      expect(api.logs()).not.toContain(secret.slice("whsec_".length));

      // The secret signs what the endpoint receives.
      const sold = await sale(acme, 1111);
      const [delivered] = await receiver.waitFor((requests) => requests.some(approvalOf(sold)), { path: "/created" });
      expect(verified(delivered!, secret)).toMatchObject({ type: "transaction.approved" });
    });

    it("sends an endpoint only the events recorded after its creation", async () => {
      const before = await sale(acme, 1201);
      const endpoint = await createOk(acme, "/fresh", ["*"]);
      const after = await sale(acme, 1202);
      const received = await receiver.waitFor((requests) => requests.some(approvalOf(after)), { path: "/fresh" });
      expect(received.map(subjectOf)).not.toContain(before);
      for (const request of received) verified(request, endpoint.secret);
    });

    it("refuses invalid endpoints with 400 validation_error and creates nothing", async () => {
      const url = `${receiver.url}/invalid`;
      const count = (await list(acme.key)).length;
      expectValidationError(await create(acme.key, { url, events: ["transaction.refunded"] }), undefined);
      expectValidationError(await create(acme.key, { url, events: ["transaction.approved", "nonsense"] }));
      expectValidationError(await create(acme.key, { url, events: [] }));
      expectValidationError(await create(acme.key, { url, events: "*" }));
      expectValidationError(await create(acme.key, { url: "not a url", events: ["*"] }), "url");
      expectValidationError(await create(acme.key, { url: "ftp://127.0.0.1/hooks", events: ["*"] }), "url");
      expectValidationError(await create(acme.key, { url: `http://user:password@127.0.0.1:${receiver.port}/hooks`, events: ["*"] }), "url");
      expectValidationError(await create(acme.key, { events: ["*"] }));
      expectValidationError(await create(acme.key, { url, events: ["*"], secret: "whsec_mine" }));
      // Admin must say for which client.
      expectValidationError(await create(TEST_ADMIN_KEY, { url, events: ["*"] }));
      expect(await list(acme.key)).toHaveLength(count);

      const endpoint = await createOk(acme, "/valid", ["transaction.approved"]);
      const patch = (body: Json) => api.request("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key, body });
      expectValidationError(await patch({ events: [] }));
      expectValidationError(await patch({ events: ["transaction.refunded"] }));
      expectValidationError(await patch({ url: "ftp://127.0.0.1/hooks" }), "url");
      expectValidationError(await patch({ enabled: "yes" }));
      expectValidationError(await patch({ secret: "whsec_mine" }));
      const unchanged = await api.request("GET", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key });
      expect(unchanged.body).toMatchObject({ url: endpoint.url, events: ["transaction.approved"], enabled: true });
      expectNotFound(await api.request("GET", `/v1/webhook-endpoints/${newId()}`, { key: acme.key }));
      expectNotFound(await api.request("PATCH", `/v1/webhook-endpoints/${newId()}`, { key: acme.key, body: { enabled: false } }));
    });

    it("PATCH changes url, events, description and enabled; a disabled endpoint gets nothing, not even later", async () => {
      const control = await createOk(acme, "/control", ["transaction.approved"]);
      const endpoint = await createOk(acme, "/before", ["transaction.declined"]);
      const patch = (body: Json) => api.request("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key, body });

      const changed = await patch({ url: `${receiver.url}/after`, events: ["transaction.approved"], description: "changed" });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body).toMatchObject({
        id: endpoint.id,
        clientId: acme.clientId,
        url: `${receiver.url}/after`,
        events: ["transaction.approved"],
        description: "changed",
        enabled: true,
      });
      expect(changed.body.secret ?? null).toBeNull();
      expect(Date.parse(changed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(changed.body.createdAt));
      expect((await api.request("GET", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key })).body).toMatchObject(changed.body);

      const first = await sale(acme, 1301);
      const [atAfter] = await receiver.waitFor((requests) => requests.some(approvalOf(first)), { path: "/after" });
      expect(verified(atAfter!, endpoint.secret).type).toBe("transaction.approved");
      expect(receiver.at("/before")).toEqual([]);

      const disabled = await patch({ enabled: false });
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ enabled: false, url: `${receiver.url}/after`, description: "changed" });
      const whileDisabled = await sale(acme, 1302);
      await receiver.waitFor((requests) => requests.some(approvalOf(whileDisabled)), { path: "/control" });
      await sleep(500);
      expect(receiver.at("/after").map(subjectOf)).not.toContain(whileDisabled);

      const enabled = await patch({ enabled: true });
      expect(enabled.status).toBe(200);
      expect(enabled.body.enabled).toBe(true);
      const third = await sale(acme, 1303);
      await receiver.waitFor((requests) => requests.some(approvalOf(third)), { path: "/after" });
      await receiver.waitFor((requests) => requests.some(approvalOf(third)), { path: "/control" });
      await sleep(300);
      // An endpoint gets only what was recorded while it was enabled.
      expect(receiver.at("/after").map(subjectOf)).not.toContain(whileDisabled);
      for (const request of receiver.at("/control")) verified(request, control.secret);
    });

    it("DELETE answers 204; the endpoint is gone and gets nothing more", async () => {
      const control = await createOk(acme, "/control-deleted", ["transaction.approved"]);
      const endpoint = await createOk(acme, "/deleted", ["*"]);
      const deleted = await api.request("DELETE", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe("");
      expectNotFound(await api.request("GET", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key }));
      expectNotFound(await api.request("DELETE", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key }));
      expectNotFound(await api.request("PATCH", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key, body: { enabled: true } }));
      expect((await list(acme.key)).map((listed) => listed.id)).not.toContain(endpoint.id);

      const sold = await sale(acme, 1401);
      await receiver.waitFor((requests) => requests.some(approvalOf(sold)), { path: "/control-deleted" });
      await sleep(500);
      expect(receiver.at("/deleted")).toEqual([]);
      expect(control.id).not.toBe(endpoint.id);
    });

    it("rotates the secret: 200 with a new one; deliveries are then signed with both; a replay shows no secret", async () => {
      const endpoint = await createOk(acme, "/rotated", ["transaction.approved"]);
      const oldSecret = endpoint.secret;
      const first = await sale(acme, 1501);
      const [beforeRotation] = await receiver.waitFor((requests) => requests.some(approvalOf(first)), { path: "/rotated" });
      verified(beforeRotation!, oldSecret);

      const rotate = () =>
        api.request("POST", `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: acme.key, body: {}, headers: { "idempotency-key": "rotate-1" } });
      const rotated = await rotate();
      expect(rotated.status, rotated.text).toBe(200);
      expect(rotated.body.id).toBe(endpoint.id);
      const newSecret = rotated.body.secret as string;
      expect(newSecret).toMatch(SECRET);
      expect(newSecret).not.toBe(oldSecret);
      const replayed = await rotate();
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body).toHaveProperty("secret", null);
      expect(replayed.text).not.toContain(newSecret.slice("whsec_".length));
      const fetched = await api.request("GET", `/v1/webhook-endpoints/${endpoint.id}`, { key: acme.key });
      expect(fetched.text).not.toContain(newSecret.slice("whsec_".length));
      expect(fetched.text).not.toContain(oldSecret.slice("whsec_".length));
      expect(await tablesContaining(api, newSecret.slice("whsec_".length))).toEqual([]);

      // The next delivery carries two signatures: a receiver holding either secret accepts it.
      const second = await sale(acme, 1502);
      const received = await receiver.waitFor((requests) => requests.some(approvalOf(second)), { path: "/rotated" });
      const afterRotation = received.find(approvalOf(second))!;
      expect(afterRotation.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(verified(afterRotation, newSecret)).toMatchObject({ type: "transaction.approved", data: { transaction: { id: second } } });
      expect(verified(afterRotation, oldSecret)).toMatchObject({ type: "transaction.approved", data: { transaction: { id: second } } });
      const stranger = (await createOk(acme, "/stranger", ["transaction.declined"])).secret;
      expect(() => verified(afterRotation, stranger)).toThrow();
      // The replay rotated nothing: still exactly these two secrets.
      const third = await sale(acme, 1503);
      const later = (await receiver.waitFor((requests) => requests.some(approvalOf(third)), { path: "/rotated" })).find(approvalOf(third))!;
      expect(later.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      verified(later, newSecret);
      verified(later, oldSecret);
    });

    it("POST /test sends one webhook.test message to that endpoint alone, signed and logged; another client's endpoint is 404", async () => {
      const tested = await createOk(acme, "/tested", ["transaction.declined"]);
      await createOk(acme, "/not-tested", ["*"]);
      const queued = await api.request("POST", `/v1/webhook-endpoints/${tested.id}/test`, { key: acme.key, body: {} });
      expect(queued.status, queued.text).toBe(202);
      expect(queued.body).toEqual({ deliveryId: expect.stringMatching(UUID), eventId: expect.stringMatching(UUID), status: "pending" });

      const [arrived] = await receiver.waitFor((requests) => requests.length >= 1, { path: "/tested", message: "the test message" });
      expect(arrived!.headers["webhook-id"]).toBe(queued.body.eventId);
      const body = verified(arrived!, tested.secret);
      expect(body).toEqual({ id: queued.body.eventId, type: "webhook.test", createdAt: expect.stringMatching(ISO_UTC), data: { endpointId: tested.id } });
      await vi.waitFor(
        async () => {
          const log = await api.request("GET", `/v1/webhook-endpoints/${tested.id}/deliveries`, { key: acme.key });
          expect(log.body.data).toMatchObject([
            { deliveryId: queued.body.deliveryId, eventId: queued.body.eventId, eventType: "webhook.test", attempt: 1, status: "delivered", responseStatus: 200 },
          ]);
        },
        { timeout: 10_000, interval: 50 },
      );
      await sleep(200);
      expect(receiver.at("/tested")).toHaveLength(1);
      expect(receiver.at("/not-tested")).toEqual([]);

      expectNotFound(await api.request("POST", `/v1/webhook-endpoints/${tested.id}/test`, { key: globex.key, body: {} }));
      expectNotFound(await api.request("POST", `/v1/webhook-endpoints/${newId()}/test`, { key: acme.key, body: {} }));
      const byAdmin = await api.request("POST", `/v1/webhook-endpoints/${tested.id}/test`, { body: {} });
      expect(byAdmin.status, byAdmin.text).toBe(202);
      await receiver.waitFor((requests) => requests.length >= 2, { path: "/tested", message: "the admin's test message" });
    });

    it("keeps clients apart on every endpoint route: another client's endpoint is 404; admin sees all", async () => {
      const acmeEndpoint = await createOk(acme, "/acme", ["*"]);
      const globexEndpoint = await createOk(globex, "/globex", ["*"]);
      const sold = await sale(acme, 1601);
      const [delivered] = (await receiver.waitFor((requests) => requests.some(approvalOf(sold)), { path: "/acme" })).filter(approvalOf(sold));
      await vi.waitFor(
        async () => {
          const attempts = await api.request("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}/deliveries`, { key: acme.key });
          expect(attempts.body.data.some((attempt: Json) => attempt.eventId === delivered!.headers["webhook-id"] && attempt.status === "delivered")).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
      const attempt = (await api.request("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}/deliveries`, { key: acme.key })).body.data.find(
        (candidate: Json) => candidate.eventId === delivered!.headers["webhook-id"],
      );

      const asGlobex = (method: string, path: string, body?: Json) => api.request(method, path, { key: globex.key, body });
      expectNotFound(await asGlobex("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}`));
      expectNotFound(await asGlobex("PATCH", `/v1/webhook-endpoints/${acmeEndpoint.id}`, { url: `${receiver.url}/stolen`, enabled: false }));
      expectNotFound(await asGlobex("DELETE", `/v1/webhook-endpoints/${acmeEndpoint.id}`));
      expectNotFound(await asGlobex("POST", `/v1/webhook-endpoints/${acmeEndpoint.id}/rotate-secret`, {}));
      expectNotFound(await asGlobex("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}/deliveries`));
      expectNotFound(await asGlobex("POST", `/v1/webhook-deliveries/${attempt.id}/redeliver`, {}));
      expectNotFound(await asGlobex("POST", `/v1/webhook-deliveries/${attempt.deliveryId}/redeliver`, {}));

      // None of that touched Acme's endpoint: unchanged, not rotated, nothing redelivered.
      const unchanged = await api.request("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}`, { key: acme.key });
      expect(unchanged.status).toBe(200);
      expect(unchanged.body).toMatchObject({ url: `${receiver.url}/acme`, enabled: true, events: ["*"] });
      await sleep(500);
      expect(receiver.at("/acme").filter((request) => request.headers["webhook-id"] === delivered!.headers["webhook-id"])).toHaveLength(1);
      expect(receiver.at("/stolen")).toEqual([]);
      const next = await sale(acme, 1602);
      const nextDelivery = (await receiver.waitFor((requests) => requests.some(approvalOf(next)), { path: "/acme" })).find(approvalOf(next))!;
      expect(nextDelivery.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
      verified(nextDelivery, acmeEndpoint.secret);

      // Lists: each client its own; Globex's endpoint got none of Acme's events.
      const acmeIds = (await list(acme.key)).map((endpoint) => endpoint.id);
      const globexIds = (await list(globex.key)).map((endpoint) => endpoint.id);
      expect(acmeIds).toContain(acmeEndpoint.id);
      expect(acmeIds).not.toContain(globexEndpoint.id);
      expect(globexIds).toContain(globexEndpoint.id);
      expect(globexIds).not.toContain(acmeEndpoint.id);
      expect(receiver.at("/globex").map(subjectOf)).not.toContain(sold);
      expect(receiver.at("/globex").map(subjectOf)).not.toContain(next);

      // Admin reads everything, and creates for a client it names.
      const adminIds = (await list(TEST_ADMIN_KEY)).map((endpoint) => endpoint.id);
      expect(adminIds).toEqual(expect.arrayContaining([acmeEndpoint.id, globexEndpoint.id]));
      expect((await api.request("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}`)).body).toMatchObject({ id: acmeEndpoint.id, clientId: acme.clientId });
      expect((await api.request("GET", `/v1/webhook-endpoints/${acmeEndpoint.id}/deliveries`)).status).toBe(200);
      const byAdmin = await create(TEST_ADMIN_KEY, { url: `${receiver.url}/by-admin`, events: ["transaction.approved"], clientId: globex.clientId });
      expect(byAdmin.status, byAdmin.text).toBe(201);
      expect(byAdmin.body).toMatchObject({ clientId: globex.clientId });
      expect(byAdmin.body.secret).toMatch(SECRET);
      expect((await list(globex.key)).map((endpoint) => endpoint.id)).toContain(byAdmin.body.id);

      // A client key names its own client, never another.
      const own = await create(acme.key, { url: `${receiver.url}/own`, events: ["*"], clientId: acme.clientId });
      expect(own.status, own.text).toBe(201);
      expect(own.body.clientId).toBe(acme.clientId);
      const forOther = await create(acme.key, { url: `${receiver.url}/for-other`, events: ["*"], clientId: globex.clientId });
      expect([400, 403, 404], forOther.text).toContain(forOther.status);
      expect((await list(TEST_ADMIN_KEY)).map((endpoint) => endpoint.url)).not.toContain(`${receiver.url}/for-other`);
    });
  });

  describe(`webhook URL rules without WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE, on ${target}`, () => {
    let api: TestService;
    let acme: Client;
    beforeAll(async () => {
      api = await startTestService(target, {});
      acme = await api.createClient("Acme");
    });
    afterAll(() => api?.stop());

    it("refuses plain http and private, loopback, link-local and other non-public hosts; accepts a public https one", async () => {
      const create = (url: string) => api.request("POST", "/v1/webhook-endpoints", { key: acme.key, body: { url, events: ["*"] } });
      const refused = [
        "http://1.1.1.1/hooks",
        "http://shop.example/hooks",
        "https://127.0.0.1/hooks",
        "https://127.1.2.3:8443/hooks",
        "https://localhost/hooks",
        "https://10.0.0.1/hooks",
        "https://172.16.5.4/hooks",
        "https://192.168.1.10/hooks",
        "https://169.254.169.254/latest/meta-data",
        "https://0.0.0.0/hooks",
        "https://100.64.0.1/hooks",
        "https://[::1]/hooks",
        "https://[::]/hooks",
        "https://[fd00::1]/hooks",
        "https://[fe80::1]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://[::ffff:10.0.0.1]/hooks",
        "https://[::127.0.0.1]/hooks",
        "https://[::ffff:7f00:1]/hooks",
        "https://[64:ff9b::10.0.0.1]/hooks",
        "https://[2002:a00:1::]/hooks",
        "https://[fec0::1]/hooks",
        "https://user:secret@1.1.1.1/hooks",
      ];
      for (const url of refused) {
        const response = await create(url);
        expect(response.status, `${url}: ${response.text}`).toBe(400);
        expect(response.body.code, url).toBe("validation_error");
        expect(response.body.errors?.[0]?.path, url).toBe("url");
      }
      // A refusal names the variable that would lift it.
      const lifting = {
        "http://1.1.1.1/hooks": "WEBHOOK_ALLOW_HTTP",
        "https://10.0.0.1/hooks": "WEBHOOK_ALLOW_PRIVATE",
        "https://localhost/hooks": "WEBHOOK_ALLOW_PRIVATE",
      };
      for (const [url, variable] of Object.entries(lifting)) {
        const response = await create(url);
        expect(response.body.detail, url).toContain(variable);
        expect(response.body.errors?.[0]?.message, url).toContain(variable);
      }
      expect((await api.request("GET", "/v1/webhook-endpoints", { key: acme.key })).body.data).toEqual([]);

      const accepted = await create("https://1.1.1.1/hooks");
      expect(accepted.status, accepted.text).toBe(201);
      const moved = await api.request("PATCH", `/v1/webhook-endpoints/${accepted.body.id}`, { key: acme.key, body: { url: "https://10.0.0.1/hooks" } });
      expectValidationError(moved, "url");
      expect((await api.request("GET", `/v1/webhook-endpoints/${accepted.body.id}`, { key: acme.key })).body.url).toBe("https://1.1.1.1/hooks");
    });
  });

  describe(`webhook URL rules with WEBHOOK_ALLOW_HTTP but not WEBHOOK_ALLOW_PRIVATE, on ${target}`, () => {
    it("refuses a loopback http URL, accepts a public one, and refuses a private address again at delivery", async () => {
      const receiver = await startWebhookReceiver(200);
      const database = await openTestDatabase(target);
      // Two services in turn on one database: one that allows private addresses, then one that does not.
      const start = (environment: Record<string, string>) =>
        startService(
          testConfig(database.url, { PROCESSOR_TIMEOUT_MS: "2000", WEBHOOK_RETRY_BASE_MS: "20", WEBHOOK_DISPATCH_INTERVAL_MS: "50", ...environment }),
          createLogger("silent"),
          { ...database, close: async () => {} },
        );
      let service: Service | undefined;
      const call = (method: string, path: string, key: string, body?: unknown) => apiRequest(service!.url, method, path, { key, body });
      try {
        service = await start({ WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" });
        const client = await call("POST", "/v1/clients", TEST_ADMIN_KEY, { name: "Acme" });
        const key = (await call("POST", `/v1/clients/${client.body.id}/api-keys`, TEST_ADMIN_KEY, {})).body.key as string;
        expect((await call("POST", "/v1/host-configurations/processor_a", TEST_ADMIN_KEY, { ...validBodies.processor_a, clientId: client.body.id })).status).toBe(201);
        const endpoint = await call("POST", "/v1/webhook-endpoints", key, { url: `${receiver.url}/rechecked`, events: ["transaction.approved"] });
        expect(endpoint.status, endpoint.text).toBe(201);
        await service.stop();
        service = undefined;

        service = await start({ WEBHOOK_ALLOW_HTTP: "true" });
        const loopback = await call("POST", "/v1/webhook-endpoints", key, { url: `http://127.0.0.1:${receiver.port}/hooks`, events: ["*"] });
        expectValidationError(loopback, "url");
        const viaName = await call("POST", "/v1/webhook-endpoints", key, { url: `http://localhost:${receiver.port}/hooks`, events: ["*"] });
        expectValidationError(viaName, "url");
        const publicHttp = await call("POST", "/v1/webhook-endpoints", key, { url: "http://1.1.1.1/hooks", events: ["transaction.declined"] });
        expect(publicHttp.status, publicHttp.text).toBe(201);

        // The endpoint made while private addresses were allowed: checked again at each attempt,
        // refused, recorded as a failed attempt with its error, and retried like any other.
        const sold = await call("POST", "/v1/transactions/sale", key, { processor: "processor_a", amount: 700, currency: "USD", card, userId: "u1" });
        expect(sold.status, sold.text).toBe(201);
        await vi.waitFor(
          async () => {
            const attempts = await call("GET", `/v1/webhook-endpoints/${endpoint.body.id}/deliveries`, key);
            expect(attempts.status).toBe(200);
            expect(attempts.body.data.length).toBeGreaterThanOrEqual(2);
          },
          { timeout: 15_000, interval: 50 },
        );
        const attempts = (await call("GET", `/v1/webhook-endpoints/${endpoint.body.id}/deliveries`, key)).body.data;
        for (const attempt of attempts) {
          expect(attempt).toMatchObject({ status: "pending", responseStatus: null, eventType: "transaction.approved" });
          expect(attempt.error).toBeTruthy();
          expect(attempt.nextAttemptAt).toMatch(ISO_UTC);
        }
        expect(receiver.at("/rechecked")).toEqual([]);
      } finally {
        await service?.stop();
        await database.close();
        await receiver.close();
      }
    }, 60_000);
  });
}
