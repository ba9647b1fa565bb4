import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";

for (const target of testDatabaseTargets()) {
  describe(`client and API key lists, on ${target}`, () => {
    let api: TestService;

    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api?.stop());

    it("lists clients to the admin, newest first, in pages that neither skip nor repeat while clients are added", async () => {
      const created = [];
      for (const name of ["First", "Second", "Third"]) created.push((await api.request("POST", "/v1/clients", { body: { name } })).body);
      const first = await api.request("GET", "/v1/clients?limit=2");
      expect(first.status).toBe(200);
      expect(first.body.data.map((client: { name: string }) => client.name)).toEqual(["Third", "Second"]);
      expect(first.body.data[0]).toEqual(created[2]);
      expect(first.body.nextCursor).toEqual(expect.any(String));

      await api.request("POST", "/v1/clients", { body: { name: "Fourth" } });
      const second = await api.request("GET", `/v1/clients?limit=2&cursor=${first.body.nextCursor}`);
      expect(second.body.data.map((client: { name: string }) => client.name)).toEqual(["First"]);
      expect(second.body.nextCursor).toBeNull();

      const client = await api.createClient("Keyholder");
      expect((await api.request("GET", "/v1/clients", { key: client.key })).status).toBe(403);
      expect((await api.request("GET", "/v1/clients?cursor=not-a-cursor")).status).toBe(400);
    });

    it("tells a key who it is: the admin, or its client and key id, with which the client reads its own limits", async () => {
      expect((await api.request("GET", "/v1/me")).body).toEqual({ role: "admin" });
      const acme = await api.createClient("Acme");
      const me = await api.request("GET", "/v1/me", { key: acme.key });
      expect(me.status).toBe(200);
      expect(me.body).toEqual({ role: "client", clientId: acme.clientId, keyId: acme.keyId });
      expect((await api.request("GET", `/v1/clients/${me.body.clientId}`, { key: acme.key })).body.name).toBe("Acme");
      expect((await api.request("GET", "/v1/me", { key: null })).status).toBe(401);
      await api.request("DELETE", `/v1/clients/${acme.clientId}/api-keys/${acme.keyId}`);
      expect((await api.request("GET", "/v1/me", { key: acme.key })).status).toBe(401);
    });

    it("lists a client's keys with their prefixes and revocations, never the keys; an unsaved key id can be revoked", async () => {
      const acme = await api.createClient("Acme");
      const second = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {} });
      expect(second.status).toBe(201);

      const listed = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys`);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([
        { id: second.body.id, prefix: second.body.key.slice(0, 12), name: null, createdAt: second.body.createdAt, revokedAt: null, lastUsedAt: null },
        { id: acme.keyId, prefix: acme.key.slice(0, 12), name: null, createdAt: expect.any(String), revokedAt: null, lastUsedAt: null },
      ]);
      expect(listed.text).not.toContain(acme.key);
      expect(listed.text).not.toContain(second.body.key);

      // The id the creator did not keep is found in the list and revoked.
      const forgotten = listed.body.data[0].id;
      expect((await api.request("DELETE", `/v1/clients/${acme.clientId}/api-keys/${forgotten}`)).status).toBe(204);
      expect((await api.request("GET", "/v1/transactions", { key: second.body.key })).status).toBe(401);
      const afterRevocation = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys?limit=1`);
      expect(afterRevocation.body.data).toEqual([expect.objectContaining({ id: forgotten, revokedAt: expect.any(String) })]);
      const rest = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys?limit=1&cursor=${afterRevocation.body.nextCursor}`);
      expect(rest.body.data).toEqual([expect.objectContaining({ id: acme.keyId, revokedAt: null })]);
      expect(rest.body.nextCursor).toBeNull();
    });

    it("shows a client its own keys and no other client's, as if they did not exist", async () => {
      const acme = await api.createClient("Acme");
      const other = await api.createClient("Other");
      const own = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys`, { key: acme.key });
      expect(own.status).toBe(200);
      expect(own.body.data.map((key: { id: string }) => key.id)).toEqual([acme.keyId]);
      const foreign = await api.request("GET", `/v1/clients/${other.clientId}/api-keys`, { key: acme.key });
      const unknown = await api.request("GET", `/v1/clients/0190a8e2-7c3b-7def-8a12-3456789abcde/api-keys`);
      expect(foreign.status).toBe(404);
      expect(unknown.status).toBe(404);
      expect(foreign.body.code).toBe("not_found");
    });
  });
}
