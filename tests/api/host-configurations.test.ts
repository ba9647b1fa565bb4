import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { credentialsContext } from "../../src/commands/host-configurations.ts";
import { createSecretBox, parseMasterKeys } from "../../src/crypto/secrets.ts";
import { hostConfigurationStreamId } from "../../src/domain/host-configurations/decider.ts";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type Body, validBodies, withField } from "../support/host-configurations.ts";
import { legacyCredentials } from "../support/legacy-ciphertext.ts";
import { approvedCard } from "../support/payments.ts";
import { startTestService, type TestService, testSecrets } from "../support/service.ts";

/** Every secret value the valid bodies carry. */
const secrets = processors.flatMap((processor) =>
  Object.values((validBodies[processor].credentials ?? {}) as Record<string, string>),
);

for (const target of testDatabaseTargets()) {
  describe(`host configurations on ${target}`, () => {
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    let globex: Awaited<ReturnType<TestService["createClient"]>>;
    const bodyFor = (processor: (typeof processors)[number], clientId = acme.clientId): Body => ({
      ...validBodies[processor],
      clientId,
    });

    beforeAll(async () => {
      // Sales below must not fail because the processor was slow on a busy machine.
      api = await startTestService(target, { PROCESSOR_TIMEOUT_MS: "10000" });
      acme = await api.createClient("Acme");
      globex = await api.createClient("Globex");
    });
    afterAll(() => api.stop());

    for (const processor of processors) {
      describe(processor, () => {
        it("creates, reads, replaces with If-Match, lists and keeps every version", async () => {
          const created = await api.request("POST", `/v1/host-configurations/${processor}`, { body: bodyFor(processor) });
          expect(created.status).toBe(201);
          expect(created.headers.get("etag")).toBe('"1"');
          const hasCredentials = processor !== "processor_a";
          expect(created.body).toMatchObject({
            processor,
            clientId: acme.clientId,
            name: "Main street store",
            version: 1,
            merchant: validBodies[processor].merchant,
            settings: expect.objectContaining({ settlementTime: "23:30", timeZone: "America/Chicago" }),
            credentials: { configured: hasCredentials },
            customProperties: { region: "north" },
          });
          const id = created.body.id;

          const read = await api.request("GET", `/v1/host-configurations/${processor}/${id}`);
          expect(read.status).toBe(200);
          expect(read.headers.get("etag")).toBe('"1"');
          expect(read.body).toEqual(created.body);

          const { credentials: _kept, ...withoutCredentials } = bodyFor(processor);
          const replaced = await api.request("PUT", `/v1/host-configurations/${processor}/${id}`, {
            body: { ...withoutCredentials, name: "Renamed", enabled: false },
            headers: { "if-match": '"1"' },
          });
          expect(replaced.status).toBe(200);
          expect(replaced.headers.get("etag")).toBe('"2"');
          expect(replaced.body).toMatchObject({ name: "Renamed", enabled: false, version: 2, credentials: { configured: hasCredentials } });
          expect(replaced.body.createdAt).toBe(created.body.createdAt);

          const stale = await api.request("PUT", `/v1/host-configurations/${processor}/${id}`, {
            body: withoutCredentials,
            headers: { "if-match": '"1"' },
          });
          expect(stale.status).toBe(412);
          expect(stale.body.code).toBe("version_conflict");

          const history = await api.request("GET", `/v1/host-configurations/${processor}/${id}/versions`);
          expect(history.status).toBe(200);
          expect(history.body.data.map((v: { version: number; name: string }) => [v.version, v.name])).toEqual([
            [1, "Main street store"],
            [2, "Renamed"],
          ]);

          const listed = await api.request("GET", `/v1/host-configurations/${processor}?clientId=${acme.clientId}`);
          expect(listed.status).toBe(200);
          expect(listed.body.data.map((v: { id: string }) => v.id)).toContain(id);
          expect(listed.body.nextCursor).toBeNull();
        });

        it("rejects an invalid field with its path, and unknown fields", async () => {
          const invalidMerchant = withField(bodyFor(processor), "settings.settlementTime", "24:00");
          const response = await api.request("POST", `/v1/host-configurations/${processor}`, { body: invalidMerchant });
          expect(response.status).toBe(400);
          expect(response.body.errors).toEqual([expect.objectContaining({ path: "settings.settlementTime" })]);
          const unknown = await api.request("POST", `/v1/host-configurations/${processor}`, {
            body: withField(bodyFor(processor), "merchant.extra", "x"),
          });
          expect(unknown.status).toBe(400);
          expect(unknown.body.errors).toEqual([expect.objectContaining({ path: "merchant.extra" })]);
        });
      });
    }

    it("checks processor_c's merchant id against its platform BIN", async () => {
      const wrong = withField(bodyFor("processor_c"), "merchant.platformBin", "000002");
      const response = await api.request("POST", "/v1/host-configurations/processor_c", { body: wrong });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ path: "merchant.merchantId" })]);
    });

    it("refuses credentials that cannot travel in an HTTP header, on create and replace, naming the field and never the value", async () => {
      const cases = [
        ["processor_b", "credentials.datawireId", "0001234567890123456\n"],
        ["processor_d", "credentials.secretApiKey", "sk_live_0123\r\nx-injected: 1"],
        ["processor_d", "credentials.secretApiKey", " sk_live_injected "],
      ] as const;
      for (const [processor, path, value] of cases) {
        const created = await api.request("POST", `/v1/host-configurations/${processor}`, { body: bodyFor(processor) });
        for (const [method, url] of [["POST", `/v1/host-configurations/${processor}`], ["PUT", `/v1/host-configurations/${processor}/${created.body.id}`]] as const) {
          const response = await api.request(method, url, { body: withField(bodyFor(processor), path, value) });
          expect(response.status, response.text).toBe(400);
          expect(response.body.code).toBe("validation_error");
          expect(response.body.errors).toEqual([expect.objectContaining({ path })]);
          expect(response.text).not.toContain("injected");
          expect(response.text).not.toContain("0001234567890123456");
        }
      }
    });

    it("keeps identifiers as strings with their leading zeros", async () => {
      const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: bodyFor("processor_a") });
      expect(created.body.merchant.merchantNumber).toBe("000123456789");
      expect(created.body.settings.agentBank).toBe("000001");
    });

    it("answers 404 for an unknown processor, another processor's id, or an unknown client", async () => {
      const created = await api.request("POST", "/v1/host-configurations/processor_b", { body: bodyFor("processor_b") });
      expect((await api.request("GET", `/v1/host-configurations/processor_e/${created.body.id}`)).status).toBe(404);
      expect((await api.request("GET", `/v1/host-configurations/processor_a/${created.body.id}`)).status).toBe(404);
      const noClient = await api.request("POST", "/v1/host-configurations/processor_b", {
        body: bodyFor("processor_b", "00000000-0000-7000-8000-000000000000"),
      });
      expect(noClient.status).toBe(400);
      expect(noClient.body.errors).toEqual([expect.objectContaining({ path: "clientId" })]);
    });

    it("lets clients read only their own configurations, and write none", async () => {
      const created = await api.request("POST", "/v1/host-configurations/processor_d", { body: bodyFor("processor_d") });
      const path = `/v1/host-configurations/processor_d/${created.body.id}`;
      expect((await api.request("GET", path, { key: acme.key })).status).toBe(200);
      expect((await api.request("GET", `${path}/versions`, { key: acme.key })).status).toBe(200);
      const other = await api.request("GET", path, { key: globex.key });
      expect(other.status).toBe(404);
      expect((await api.request("GET", `${path}/versions`, { key: globex.key })).status).toBe(404);
      const othersList = await api.request("GET", "/v1/host-configurations/processor_d", { key: globex.key });
      expect(othersList.body.data).toEqual([]);
      const ownList = await api.request("GET", "/v1/host-configurations/processor_d", { key: acme.key });
      expect(ownList.body.data.map((v: { id: string }) => v.id)).toContain(created.body.id);

      const write = await api.request("POST", "/v1/host-configurations/processor_d", {
        key: acme.key,
        body: bodyFor("processor_d"),
      });
      expect(write.status).toBe(403);
      expect((await api.request("GET", path, { key: null })).status).toBe(401);
    });

    it("of two updates with the same If-Match, one wins and the other gets 412", async () => {
      const created = await api.request("POST", "/v1/host-configurations/processor_b", { body: bodyFor("processor_b") });
      const path = `/v1/host-configurations/processor_b/${created.body.id}`;
      const responses = await Promise.all(
        ["One", "Two"].map((name) =>
          api.request("PUT", path, { body: { ...bodyFor("processor_b"), name }, headers: { "if-match": '"1"' } }),
        ),
      );
      expect(responses.map((r) => r.status).sort()).toEqual([200, 412]);
      const current = await api.request("GET", path);
      expect(current.body.version).toBe(2);
    });

    it("pages lists with a cursor, never repeating or skipping", async () => {
      const client = await api.createClient("Paged");
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: bodyFor("processor_a", client.clientId),
        });
        ids.push(created.body.id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `clientId=${client.clientId}&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
        const page = await api.request("GET", `/v1/host-configurations/processor_a?${query}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.data.map((v: { id: string }) => v.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual([...ids].reverse());
      expect((await api.request("GET", "/v1/host-configurations/processor_a?limit=101")).status).toBe(400);
      expect((await api.request("GET", "/v1/host-configurations/processor_a?cursor=bogus")).status).toBe(400);
    });

    describe("credentials are bound to their configuration", () => {
      const storedCredentials = async (id: string) => {
        const row = await api.database.db
          .selectFrom("events")
          .select("data")
          .where("stream_id", "=", hostConfigurationStreamId(id))
          .where("type", "=", "HostConfigurationCreated.v1")
          .executeTakeFirstOrThrow();
        return (row.data as { credentials: string }).credentials;
      };
      /** Writes into the stored event, as someone with access to the database could. */
      const storeCredentials = (id: string, ciphertext: string) =>
        sql`update events set data = jsonb_set(data, '{credentials}', to_jsonb(${ciphertext}::text))
            where stream_id = ${hostConfigurationStreamId(id)} and type = 'HostConfigurationCreated.v1'`.execute(api.database.db);
      const configure = async (clientId: string, password: string): Promise<string> => {
        const body = withField(bodyFor("processor_c", clientId), "credentials.password", password);
        const created = await api.request("POST", "/v1/host-configurations/processor_c", { body });
        expect(created.status).toBe(201);
        return created.body.id;
      };
      const sale = (key: string, hostConfigurationId: string) =>
        api.request("POST", "/v1/transactions/sale", {
          key,
          body: { processor: "processor_c", hostConfigurationId, amount: 100, currency: "USD", userId: "u", card: approvedCard },
        });

      it("a ciphertext copied to another configuration does not decrypt there", async () => {
        const client = await api.createClient("Moved");
        const password = "s3cret pass!";
        const a = await configure(client.clientId, password);
        // The simulator refuses this password: were A's credentials used by B, B's sale would pass.
        const b = await configure(client.clientId, "invalid-password");
        await storeCredentials(b, await storedCredentials(a));

        const moved = await sale(client.key, b);
        expect(moved.status).toBe(500);
        expect(moved.body).toMatchObject({ code: "internal_error", detail: expect.not.stringContaining("at ") });
        expect(moved.text).not.toContain(password);
        expect(moved.text).not.toMatch(/ciphertext|Decryption|stack/i);
        expect(api.logs()).toMatch(/DecryptionError/);
        expect(api.logs()).not.toContain(password);
        expect((await api.request("GET", `/v1/host-configurations/processor_c/${b}`)).status).toBe(200);

        expect((await sale(client.key, a)).status).toBe(201);
      });

      it("credentials stored before they were checked, which a header cannot carry, fail the sale naming the field, never sent", async () => {
        const client = await api.createClient("Unsendable");
        const created = await api.request("POST", "/v1/host-configurations/processor_d", { body: bodyFor("processor_d", client.clientId) });
        const id: string = created.body.id;
        const unsendable = "sk_live_0123\r\nx-forged: 1";
        const box = createSecretBox(parseMasterKeys(testSecrets.SECRETS_MASTER_KEYS));
        await storeCredentials(id, box.encrypt({ secretApiKey: unsendable }, credentialsContext(id)));

        const response = await api.request("POST", "/v1/transactions/sale", {
          key: client.key,
          body: { processor: "processor_d", hostConfigurationId: id, amount: 100, currency: "USD", userId: "u", card: approvedCard },
        });
        expect(response.status, response.text).toBe(502);
        expect(response.body).toMatchObject({
          code: "processor_authentication_failed",
          transaction: { status: "failed", failureReason: "processor_authentication_failed", processorResponse: { code: "credentials_unusable" } },
        });
        expect(response.body.detail).toContain(`The connector could not send the credentials of host configuration ${id}`);
        expect(response.body.detail).toContain("credentials.secretApiKey must be printable ASCII");
        const logged = api.logs().split("\n").filter((line) => line.includes("credentials cannot be sent"));
        expect(logged).toHaveLength(1);
        expect(JSON.parse(logged[0]!)).toMatchObject({ hostConfigurationId: id, processor: "processor_d", field: "credentials.secretApiKey" });
        expect(response.text + api.logs()).not.toContain("x-forged");
      });

      it("credentials stored in the first envelope version (v1) still work", async () => {
        const client = await api.createClient("Legacy");
        const id = await configure(client.clientId, "invalid-password");
        await storeCredentials(id, legacyCredentials.ciphertext);
        const response = await sale(client.key, id);
        expect(response.status, response.text).toBe(201);
      });
    });

    it("never returns, stores in the clear or logs a secret", async () => {
      for (const processor of processors) {
        await api.request("POST", `/v1/host-configurations/${processor}`, { body: bodyFor(processor) });
      }
      const db = api.database.db;
      const stored = await sql<{ text: string }>`
        select data::text || metadata::text as text from events
        union all select view::text from host_configurations
        union all select coalesce(response_body, '') from idempotency_records
      `.execute(db);
      const everything = stored.rows.map((row) => row.text).join("\n") + api.logs();
      // The search covers real content: the configurations' clear fields are there.
      expect(everything).toContain("Main street store");
      expect(everything).toContain("request completed");
      for (const secret of secrets) expect(everything).not.toContain(secret);
      const events = await sql<{ data: { credentials: string | null } }>`
        select data from events where type = 'HostConfigurationCreated.v1'`.execute(db);
      // What the API wrote: the legacy test above planted a v1 ciphertext by hand.
      const ciphertexts = events.rows
        .map((row) => row.data.credentials)
        .filter((ciphertext) => ciphertext && ciphertext !== legacyCredentials.ciphertext);
      expect(ciphertexts.length).toBeGreaterThan(0);
      for (const ciphertext of ciphertexts) expect(ciphertext).toMatch(/^v2\.[A-Za-z0-9_-]+\./);
    });
  });
}
