import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openEventStore } from "../../src/eventstore/open.ts";
import { clientsProjection } from "../../src/projections/clients/clients-projection.ts";
import { rebuildProjection } from "../../src/projections/rebuild.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

for (const target of testDatabaseTargets()) {
  describe(`API key names and last use, on ${target}`, () => {
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      api = await startTestService(target);
      acme = await api.createClient("Acme");
    });
    afterAll(() => api?.stop());

    const issue = (body: unknown, headers: Record<string, string> = {}) =>
      api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body, headers });
    const listed = async (keyId: string): Promise<Json> => {
      const list = await api.request("GET", `/v1/clients/${acme.clientId}/api-keys?limit=100`);
      expect(list.status, list.text).toBe(200);
      return list.body.data.find((key: Json) => key.id === keyId);
    };
    const lastUsedRow = async (keyId: string) =>
      (
        await sql<{ last_used_at: Date }>`select last_used_at from api_key_last_used where key_id = ${keyId}`.execute(api.database.db)
      ).rows[0]?.last_used_at;

    it("keeps a key's name, trimmed, and shows it on creation and in the list; an unnamed key's is null", async () => {
      const named = await issue({ name: "  checkout server " });
      expect(named.status, named.text).toBe(201);
      expect(named.body).toEqual({ id: expect.any(String), key: expect.stringMatching(/^ldgr_sk_/), name: "checkout server", createdAt: expect.any(String) });
      expect(await listed(named.body.id)).toEqual({
        id: named.body.id,
        prefix: named.body.key.slice(0, 12),
        name: "checkout server",
        createdAt: named.body.createdAt,
        revokedAt: null,
        lastUsedAt: null,
      });

      const unnamed = await issue({});
      expect(unnamed.status, unnamed.text).toBe(201);
      expect(unnamed.body.name).toBeNull();
      expect((await listed(unnamed.body.id)).name).toBeNull();
    });

    it("refuses a name that is blank, too long, not text or not printable: 400 validation_error", async () => {
      for (const name of ["", "   ", "x".repeat(101), 42, null, "tab\there", "line\nbreak"]) {
        const refused = await issue({ name });
        expect(refused.status, `${JSON.stringify(name)}: ${refused.text}`).toBe(400);
        expect(refused.body.code).toBe("validation_error");
        expect(refused.body.errors).toEqual([expect.objectContaining({ path: "name" })]);
      }
      expect((await issue({ name: "x".repeat(100) })).status).toBe(201);
    });

    it("answers a replay with the same fields, the name included, and the key null", async () => {
      const first = await issue({ name: "replayed" }, { "idempotency-key": "named-key" });
      expect(first.status, first.text).toBe(201);
      const replay = await issue({ name: "replayed" }, { "idempotency-key": "named-key" });
      expect(replay.status, replay.text).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual({ ...first.body, key: null });
      expect(replay.body.name).toBe("replayed");
    });

    it("shows when a key was last used: null before, set by a request with it, not rewritten within the minute", async () => {
      const issued = await issue({ name: "used" });
      expect((await listed(issued.body.id)).lastUsedAt).toBeNull();

      expect((await api.request("GET", "/v1/me", { key: issued.body.key })).status).toBe(200);
      const first = await vi.waitFor(
        async () => {
          const row = await lastUsedRow(issued.body.id);
          if (!row) throw new Error("no last use recorded yet");
          return row;
        },
        { timeout: 5_000, interval: 20 },
      );
      expect((await listed(issued.body.id)).lastUsedAt).toBe(first.toISOString());

      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await api.request("GET", "/v1/me", { key: issued.body.key })).status).toBe(200);
      // Give a write that should not happen the time to land.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await lastUsedRow(issued.body.id)).toEqual(first);
      expect((await listed(issued.body.id)).lastUsedAt).toBe(first.toISOString());
    });

    it("keeps last-used times through a rebuild of the clients read model", async () => {
      const issued = await issue({ name: "rebuilt" });
      expect((await api.request("GET", "/v1/me", { key: issued.body.key })).status).toBe(200);
      await vi.waitFor(async () => expect(await lastUsedRow(issued.body.id)).toBeDefined(), { timeout: 5_000, interval: 20 });
      const before = await listed(issued.body.id);
      expect(before.lastUsedAt).toEqual(expect.any(String));

      await rebuildProjection({ db: api.database.db, store: openEventStore(undefined, api.database.db), projection: clientsProjection });
      expect(await listed(issued.body.id)).toEqual(before);
    });

    it("answers a request whose last-use write fails, and logs the failure", async () => {
      const issued = await issue({ name: "unrecorded" });
      const { db } = api.database;
      await sql`create function refuse_last_use() returns trigger language plpgsql as $$
        begin raise exception 'last use refused by the test'; end $$`.execute(db);
      await sql`create trigger refuse_last_use before insert or update on api_key_last_used for each row execute function refuse_last_use()`.execute(db);
      try {
        const me = await api.request("GET", "/v1/me", { key: issued.body.key });
        expect(me.status, me.text).toBe(200);
        await vi.waitFor(() => expect(api.logs()).toContain("last use refused by the test"), { timeout: 5_000, interval: 20 });
      } finally {
        await sql`drop trigger refuse_last_use on api_key_last_used`.execute(db);
        await sql`drop function refuse_last_use()`.execute(db);
      }
      expect(await lastUsedRow(issued.body.id)).toBeUndefined();
      expect((await listed(issued.body.id)).lastUsedAt).toBeNull();
    });
  });
}
