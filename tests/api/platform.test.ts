import { gzipSync } from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAuthentication } from "../../src/api/auth.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

for (const target of testDatabaseTargets()) {
  describe(`API platform on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api.stop());

    describe("request ids", () => {
      it("echoes the caller's x-request-id and makes one otherwise", async () => {
        const echoed = await api.request("GET", "/v1/clients/00000000-0000-7000-8000-000000000000", {
          headers: { "x-request-id": "trace-123" },
        });
        expect(echoed.headers.get("x-request-id")).toBe("trace-123");
        expect(echoed.body.requestId).toBe("trace-123");
        const made = await api.request("GET", "/health/live", { key: null });
        expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      });
    });

    describe("errors are problem+json", () => {
      it("an unknown route is 404 not_found", async () => {
        const response = await api.request("GET", "/v1/nothing-here");
        expect(response.status).toBe(404);
        expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ type: "/problems/not_found", status: 404, code: "not_found" });
      });

      it("an unknown field is 400 validation_error naming the field", async () => {
        const response = await api.request("POST", "/v1/clients", { body: { name: "Acme", nmae: "typo" } });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("validation_error");
        expect(response.body.errors).toEqual([expect.objectContaining({ path: "nmae" })]);
      });

      it("a field that fails its schema is 400 with its path", async () => {
        const response = await api.request("POST", "/v1/clients", { body: { name: "" } });
        expect(response.status).toBe(400);
        expect(response.body.errors).toEqual([expect.objectContaining({ path: "name" })]);
        const badParam = await api.request("GET", "/v1/clients/not-a-uuid");
        expect(badParam.status).toBe(400);
        expect(badParam.body.errors).toEqual([expect.objectContaining({ path: "clientId" })]);
      });

      it("malformed JSON is 400 validation_error", async () => {
        const response = await api.request("POST", "/v1/clients", { body: '{"name": "Acme",' });
        expect(response.status).toBe(400);
        expect(response.body.code).toBe("validation_error");
      });

      it("a body over 64 KiB is 413 payload_too_large", async () => {
        const response = await api.request("POST", "/v1/clients", { body: { name: "x".repeat(70 * 1024) } });
        expect(response.status).toBe(413);
        expect(response.body.code).toBe("payload_too_large");
        expect(response.body.detail).toBe("The request body is over the limit of 65536 bytes.");
      });

      it("a body that is not JSON is 415 unsupported_media_type", async () => {
        const response = await api.request("POST", "/v1/clients", {
          body: "name=Acme",
          headers: { "content-type": "application/x-www-form-urlencoded" },
        });
        expect(response.status).toBe(415);
        expect(response.body.code).toBe("unsupported_media_type");
        const plainText = await api.request("POST", "/v1/clients", { body: "Acme", headers: { "content-type": "text/plain" } });
        expect(plainText.status).toBe(415);
        expect(plainText.body.code).toBe("unsupported_media_type");
      });

      it("a compressed body is 415 unsupported_media_type, never read as UTF-8, and its Idempotency-Key stays free", async () => {
        const compressed = await fetch(`${api.url}/v1/clients`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${TEST_ADMIN_KEY}`,
            "content-type": "application/json",
            "content-encoding": "gzip",
            "idempotency-key": "compressed-1",
          },
          body: gzipSync(JSON.stringify({ name: "Acme" })),
        });
        expect(compressed.status).toBe(415);
        expect(await compressed.json()).toMatchObject({
          code: "unsupported_media_type",
          detail: "Send the body uncompressed: content-encoding must be identity.",
        });
        const deflated = await api.request("POST", "/v1/clients", { body: { name: "Acme" }, headers: { "content-encoding": "deflate" } });
        expect(deflated.status).toBe(415);
        const identity = await api.request("POST", "/v1/clients", {
          body: { name: "Acme" },
          headers: { "content-encoding": "identity", "idempotency-key": "compressed-1" },
        });
        expect(identity.status, identity.text).toBe(201);
        expect(identity.headers.get("idempotent-replayed")).toBeNull();
      });

      it("a body in another charset than UTF-8 is 415 unsupported_media_type; utf-8 in any case, quoted or not, is read", async () => {
        const utf16 = await fetch(`${api.url}/v1/clients`, {
          method: "POST",
          headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json; charset=utf-16" },
          body: Buffer.from(JSON.stringify({ name: "Acme" }), "utf16le"),
        });
        expect(utf16.status).toBe(415);
        expect(await utf16.json()).toMatchObject({
          code: "unsupported_media_type",
          detail: "Send JSON encoded as UTF-8: charset must be utf-8.",
        });
        const otherCharsets = ["application/json; charset=latin1", 'application/json; charset="UTF-16LE"', "application/json;charset=utf-8;charset=utf-16"];
        for (const contentType of otherCharsets) {
          const refused = await api.request("POST", "/v1/clients", { body: { name: "Acme" }, headers: { "content-type": contentType } });
          expect(refused.status, contentType).toBe(415);
        }
        const utf8 = ["application/json; charset=utf-8", 'application/json; Charset="UTF-8"', "application/json;charset=UTF-8", 'application/json; profile="x;charset=utf-16"'];
        for (const contentType of utf8) {
          const read = await api.request("POST", "/v1/clients", { body: { name: "Acme" }, headers: { "content-type": contentType } });
          expect(read.status, contentType).toBe(201);
        }
      });

      it("a known path called with another method is 405 with allow; an unknown path stays 404", async () => {
        const clients = await api.request("DELETE", "/v1/clients");
        expect(clients.status).toBe(405);
        expect(clients.headers.get("allow")).toBe("GET, HEAD, POST");
        expect(clients.body).toMatchObject({ code: "method_not_allowed", detail: "/v1/clients answers GET, HEAD, POST, not DELETE." });
        const withId = await api.request("POST", "/v1/clients/00000000-0000-7000-8000-000000000000");
        expect(withId.status).toBe(405);
        expect(withId.headers.get("allow")).toBe("GET, HEAD");
        const settle = await api.request("GET", "/v1/host-configurations/processor_a/00000000-0000-7000-8000-000000000000/settle");
        expect(settle.headers.get("allow")).toBe("POST");
        expect((await api.request("PUT", "/v1/nothing-here")).status).toBe(404);
      });

      it("an empty body with a JSON content type is no body: a DELETE that always sends the header succeeds", async () => {
        const acme = await api.createClient("Acme");
        const revoked = await api.request("DELETE", `/v1/clients/${acme.clientId}/api-keys/${acme.keyId}`, {
          headers: { "content-type": "application/json" },
        });
        expect(revoked.status, revoked.text).toBe(204);
        const issued = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { headers: { "content-type": "application/json" } });
        expect(issued.status, issued.text).toBe(201);
        const nameless = await api.request("POST", "/v1/clients", { headers: { "content-type": "application/json" } });
        expect(nameless.status).toBe(400);
        expect(nameless.body.errors).toEqual([expect.objectContaining({ path: "name" })]);
      });

      it("says which part of a request is invalid, and which key an operation needs, in plain English", async () => {
        const badParam = await api.request("GET", "/v1/clients/not-a-uuid");
        expect(badParam.body.detail).toBe("The path parameters are invalid.");
        const badQuery = await api.request("GET", "/v1/clients?limit=0");
        expect(badQuery.body.detail).toBe("The query string is invalid.");
        const acme = await api.createClient("Acme");
        const asClient = await api.request("POST", "/v1/clients", { key: acme.key, body: { name: "X" } });
        expect(asClient.body.detail).toBe("This operation needs an admin key.");
        const asAdmin = await api.request("POST", "/v1/transactions/sale", { body: {} });
        expect(asAdmin.body.detail).toBe("This operation needs a client key.");
      });
    });

    describe("authentication and roles", () => {
      it("every /v1 operation of the OpenAPI document answers 401 invalid_credentials without a key", async () => {
        const document = (await api.request("GET", "/openapi.json", { key: null })).body as {
          paths: Record<string, Record<string, unknown>>;
        };
        const operations = Object.entries(document.paths)
          .filter(([path]) => path.startsWith("/v1/"))
          .flatMap(([path, methods]) => Object.keys(methods).map((method) => [method.toUpperCase(), path] as const));
        expect(operations.length).toBeGreaterThan(30);
        for (const [method, path] of operations) {
          const url = path.replaceAll(/\{[^}]+\}/g, "00000000-0000-7000-8000-000000000000");
          const response = await api.request(method, url, { key: null, body: method === "GET" || method === "DELETE" ? undefined : {} });
          expect(response.status, `${method} ${path}`).toBe(401);
          expect(response.body.code, `${method} ${path}`).toBe("invalid_credentials");
        }
      });

      it("refuses to register a /v1 route that does not say who may call it", async () => {
        const app = Fastify();
        registerAuthentication(app, api.database.db, { kind: "stored" }, () => {});
        expect(() => app.get("/v1/open", async () => ({ open: true }))).toThrow("GET /v1/open declares no config.access");
        await app.close();
      });

      it("missing, malformed and unknown keys are 401 invalid_credentials", async () => {
        const attempts: Record<string, string>[] = [{}, { authorization: "Basic abc" }, { authorization: "Bearer short" }];
        for (const headers of attempts) {
          const response = await api.request("POST", "/v1/clients", { key: null, headers, body: { name: "A" } });
          expect(response.status).toBe(401);
          expect(response.body.code).toBe("invalid_credentials");
        }
        const unknown = await api.request("GET", "/v1/clients/00000000-0000-7000-8000-000000000000", {
          key: "ldgr_sk_unknownunknownunknownunknownunknown",
        });
        expect(unknown.status).toBe(401);
      });

      it("admin manages clients; a client key may not (403); another client's is 404", async () => {
        const acme = await api.createClient("Acme");
        const globex = await api.createClient("Globex");

        const byAdmin = await api.request("GET", `/v1/clients/${acme.clientId}`);
        expect(byAdmin.status).toBe(200);
        expect(byAdmin.body).toMatchObject({ id: acme.clientId, name: "Acme", limits: [] });
        expect(new Date(byAdmin.body.createdAt).toISOString()).toBe(byAdmin.body.createdAt);

        const byItself = await api.request("GET", `/v1/clients/${acme.clientId}`, { key: acme.key });
        expect(byItself.status).toBe(200);
        const byOther = await api.request("GET", `/v1/clients/${acme.clientId}`, { key: globex.key });
        expect(byOther.status).toBe(404);
        expect(byOther.body.code).toBe("not_found");

        const clientCreatesClient = await api.request("POST", "/v1/clients", { key: acme.key, body: { name: "X" } });
        expect(clientCreatesClient.status).toBe(403);
        expect(clientCreatesClient.body.code).toBe("forbidden");
        const clientIssuesKey = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, {
          key: acme.key,
          body: {},
        });
        expect(clientIssuesKey.status).toBe(403);
      });

      it("a key is shown once, and a revoked key stops working at once", async () => {
        const acme = await api.createClient("Acme");
        expect(acme.key).toMatch(/^ldgr_sk_[A-Za-z0-9_-]{43}$/);
        expect((await api.request("GET", `/v1/clients/${acme.clientId}`, { key: acme.key })).status).toBe(200);

        const revoked = await api.request("DELETE", `/v1/clients/${acme.clientId}/api-keys/${acme.keyId}`);
        expect(revoked.status).toBe(204);
        const after = await api.request("GET", `/v1/clients/${acme.clientId}`, { key: acme.key });
        expect(after.status).toBe(401);
        expect(after.body.code).toBe("invalid_credentials");

        const again = await api.request("DELETE", `/v1/clients/${acme.clientId}/api-keys/${acme.keyId}`);
        expect(again.status).toBe(204);
        const unknownKey = await api.request(
          "DELETE",
          `/v1/clients/${acme.clientId}/api-keys/00000000-0000-7000-8000-000000000000`,
        );
        expect(unknownKey.status).toBe(404);
      });

      it("creating a key for an unknown client is 404", async () => {
        const response = await api.request("POST", "/v1/clients/00000000-0000-7000-8000-000000000000/api-keys", {
          body: {},
        });
        expect(response.status).toBe(404);
      });
    });

    describe("idempotency", () => {
      it("replays the first response for the same key and request, and processes nothing again", async () => {
        const headers = { "idempotency-key": `create-${Math.random()}` };
        const first = await api.request("POST", "/v1/clients", { body: { name: "Once" }, headers });
        expect(first.status).toBe(201);
        expect(first.headers.get("idempotent-replayed")).toBeNull();
        const second = await api.request("POST", "/v1/clients", { body: { name: "Once" }, headers });
        expect(second.status).toBe(201);
        expect(second.headers.get("idempotent-replayed")).toBe("true");
        expect(second.body).toEqual(first.body);
      });

      it("refuses the same key with a different request (422 idempotency_key_reused)", async () => {
        const headers = { "idempotency-key": `reuse-${Math.random()}` };
        await api.request("POST", "/v1/clients", { body: { name: "First" }, headers });
        const reused = await api.request("POST", "/v1/clients", { body: { name: "Second" }, headers });
        expect(reused.status).toBe(422);
        expect(reused.body.code).toBe("idempotency_key_reused");
      });

      it("scopes keys to the caller: another client's identical key is a new request", async () => {
        const acme = await api.createClient("Acme");
        const globex = await api.createClient("Globex");
        const headers = { "idempotency-key": "shared-key" };
        const a = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {}, headers });
        const b = await api.request("POST", `/v1/clients/${globex.clientId}/api-keys`, { body: {}, headers });
        expect(a.status).toBe(201);
        // Same admin scope, different path: a different request under the same key.
        expect(b.status).toBe(422);
      });

      it("of 8 racing duplicates, exactly one executes; the rest are replays or 409 in progress", async () => {
        const headers = { "idempotency-key": `race-${Math.random()}` };
        const responses = await Promise.all(
          Array.from({ length: 8 }, () => api.request("POST", "/v1/clients", { body: { name: "Raced" }, headers })),
        );
        const created = responses.filter((r) => r.status === 201);
        const inProgress = responses.filter((r) => r.status === 409);
        expect(created.length + inProgress.length).toBe(8);
        expect(created.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
        expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
        for (const response of inProgress) expect(response.body.code).toBe("idempotency_request_in_progress");
        const { rows } = await api.database.db
          .selectFrom("clients")
          .select("client_id")
          .where("name", "=", "Raced")
          .execute()
          .then((found) => ({ rows: found }));
        expect(rows).toHaveLength(1);
      });

      it("keeps 30 keys, each sent twice at once, apart: each executes once and stores its own answer", async () => {
        const run = Math.random().toString(36).slice(2);
        const names = Array.from({ length: 30 }, (_, index) => `Grouped ${run} ${index}`);
        // Each key sent twice in one wave: claims race on every key at once.
        const responses = await Promise.all(
          [...names, ...names].map((name) =>
            api.request("POST", "/v1/clients", { body: { name }, headers: { "idempotency-key": name } }),
          ),
        );
        for (const [index, name] of names.entries()) {
          const pair = [responses[index]!, responses[index + names.length]!];
          const executed = pair.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
          expect(executed, name).toHaveLength(1);
          const other = pair.find((r) => r !== executed[0])!;
          if (other.status === 201) expect(other.body).toEqual(executed[0]!.body);
          else expect(other.body.code).toBe("idempotency_request_in_progress");
          expect(executed[0]!.body.name).toBe(name);
        }
        const created = await api.database.db.selectFrom("clients").select("name").where("name", "in", names).execute();
        expect(created.map((row) => row.name).sort()).toEqual([...names].sort());
        const records = await api.database.db
          .selectFrom("idempotency_records")
          .select(["idempotency_key", "status_code", "response_body"])
          .where("idempotency_key", "in", names)
          .execute();
        expect(records).toHaveLength(names.length);
        for (const record of records) {
          expect(record.status_code).toBe(201);
          expect(JSON.parse(record.response_body ?? "null").name).toBe(record.idempotency_key);
        }
      });

      it("holds across a restart", async () => {
        const headers = { "idempotency-key": `restart-${Math.random()}` };
        const first = await api.request("POST", "/v1/clients", { body: { name: "Durable" }, headers });
        await api.restart();
        const replayed = await api.request("POST", "/v1/clients", { body: { name: "Durable" }, headers });
        expect(replayed.headers.get("idempotent-replayed")).toBe("true");
        expect(replayed.body).toEqual(first.body);
      });

      it("rejects a malformed key", async () => {
        const response = await api.request("POST", "/v1/clients", {
          body: { name: "X" },
          headers: { "idempotency-key": "x".repeat(256) },
        });
        expect(response.status).toBe(400);
      });
    });

    describe("outside /v1", () => {
      it("serves the OpenAPI document, the docs and Prometheus metrics", async () => {
        await api.request("POST", "/v1/clients", { body: { name: "Measured" } });
        const openapi = await api.request("GET", "/openapi.json", { key: null });
        expect(openapi.status).toBe(200);
        expect(Object.keys(openapi.body.paths)).toEqual(
          expect.arrayContaining(["/v1/clients", "/v1/clients/{clientId}", "/v1/clients/{clientId}/api-keys"]),
        );
        const docs = await api.request("GET", "/docs", { key: null });
        expect(docs.status).toBe(200);
        const metrics = await api.request("GET", "/metrics", { key: null });
        expect(metrics.text).toContain('http_request_duration_seconds_count{method="POST",route="/v1/clients"');
        expect(metrics.text).toMatch(/event_store_append_duration_seconds_count\{outcome="ok"\} [1-9]/);
        expect(metrics.text).toContain('projection_lag_seconds{projection="clients"}');
        expect(metrics.text).toContain('projection_lag_positions{projection="clients"}');
      });

      it("every answer carries nosniff and no-store; /console and /docs a same-origin policy no frame may hold", async () => {
        const acme = await api.createClient("Headers");
        const answers = {
          "a /v1 answer with a new key": await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {} }),
          "a validation error": await api.request("GET", "/v1/clients/not-a-uuid"),
          "a 401": await api.request("GET", "/v1/clients", { key: null }),
          "a 404 under /v1": await api.request("GET", "/v1/nothing-here"),
          "a 404 outside": await api.request("GET", "/nothing-here", { key: null }),
          "/": await api.request("GET", "/", { key: null }),
          "/health/live": await api.request("GET", "/health/live", { key: null }),
          "/health/ready": await api.request("GET", "/health/ready", { key: null }),
          "/metrics": await api.request("GET", "/metrics", { key: null }),
          "/openapi.json": await api.request("GET", "/openapi.json", { key: null }),
        };
        const pages = {
          "/docs": await api.request("GET", "/docs", { key: null }),
          "/docs/static/swagger-ui-bundle.js": await api.request("GET", "/docs/static/swagger-ui-bundle.js", { key: null }),
          // 200 when the console is built, 503 (a problem) when not: the same headers.
          "/console/": await api.request("GET", "/console/", { key: null }),
          "/console/assets/nothing.js": await api.request("GET", "/console/assets/nothing.js", { key: null }),
        };
        expect(answers["a /v1 answer with a new key"].status).toBe(201);
        for (const [name, answer] of Object.entries({ ...answers, ...pages })) {
          expect(answer.headers.get("x-content-type-options"), name).toBe("nosniff");
          expect(answer.headers.get("cache-control"), name).toBe("no-store");
          expect(answer.headers.get("content-security-policy"), name).toContain("frame-ancestors 'none'");
        }
        for (const [name, answer] of Object.entries(pages)) {
          const directives = (answer.headers.get("content-security-policy") ?? "").split(/;\s*/);
          for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "connect-src 'self'"]) {
            expect(directives, name).toContain(directive);
          }
          expect(directives.join("; "), name).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
        }
        // The data answers are no document: they may load nothing.
        expect(answers["/openapi.json"].headers.get("content-security-policy")).toContain("default-src 'none'");
      });
    });

    it("never logs an API key or the authorization header", async () => {
      const acme = await api.createClient("Logged");
      await api.request("GET", `/v1/clients/${acme.clientId}`, { key: acme.key });
      const logs = api.logs();
      expect(logs).toContain("request completed");
      expect(logs).not.toContain(acme.key);
      expect(logs).not.toContain(TEST_ADMIN_KEY);
    });
  });
}

describe("rate limiting", () => {
  let api: TestService;
  beforeAll(async () => {
    api = await startTestService("pglite", { RATE_LIMIT_PER_MINUTE: "5" });
  });
  afterAll(() => api.stop());

  it("answers 429 rate_limited with retry-after once a key exceeds its rate", async () => {
    const statuses: number[] = [];
    let limited;
    for (let index = 0; index < 7; index += 1) {
      const response = await api.request("GET", "/v1/clients/00000000-0000-7000-8000-000000000000");
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(limited?.body.code).toBe("rate_limited");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited?.headers.get("cache-control")).toBe("no-store");
  });
});
