import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealCard } from "../../src/vault/card-vault.ts";
import { createSecretBox, parseMasterKeys } from "../../src/crypto/secrets.ts";
import { newId } from "../../src/ids.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { answeredWhileConnectionsToTableEnd } from "../support/lost-connection.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type Json, type TestService, testSecrets } from "../support/service.ts";
import { Secret } from "../../src/domain/secret.ts";

/**
 * An Idempotency-Key makes one payment method, however its requests die: a retry that takes over
 * the claim of a request that crashed after its append answers that method, not a second one.
 */
for (const target of testDatabaseTargets()) {
  describe(`a payment method's Idempotency-Key across a crash on ${target}`, () => {
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      api = await startTestService(target);
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: acme.clientId } });
      expect(created.status).toBe(201);
    });
    afterAll(() => api.stop());

    const store = (key: string, userId: string) =>
      api.request("POST", "/v1/payment-methods", {
        key: acme.key,
        headers: { "idempotency-key": key },
        body: { card: { number: "4242424242424242", expMonth: 12, expYear: 2030 }, userId },
      });
    /** What a request that died after its append leaves of its key: the claim, expired, and no answer. */
    const crashAfterAppend = (key: string) =>
      sql`update idempotency_records
          set status_code = null, response_body = null, response_headers = null, completed_at = null,
              claim_token = gen_random_uuid(), locked_until = now() - interval '1 second'
          where idempotency_key = ${key}`.execute(api.database.db);
    const keyRows = async (paymentMethodId: string) =>
      (await api.database.db.selectFrom("payment_method_keys").select("data_key_id").where("payment_method_id", "=", paymentMethodId).execute()).length;

    it("answers the method the dead request created, and stores the card once", async () => {
      const first = await store("store-then-crash", "user_1");
      expect(first.status).toBe(201);
      await crashAfterAppend("store-then-crash");

      const retry = await store("store-then-crash", "user_1");
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      const listed = await api.request("GET", "/v1/payment-methods?userId=user_1", { key: acme.key });
      expect(listed.body.data.map((method: Json) => method.id)).toEqual([first.body.id]);
      expect(await keyRows(first.body.id)).toBe(1);
      // The answer is stored again: a later retry replays it.
      const replayed = await store("store-then-crash", "user_1");
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      // Without the fingerprint, kept only under the method's key (a key's record outlives a deletion).
      const { fingerprint: _fingerprint, ...summary } = first.body.card;
      expect(replayed.body).toEqual({ ...first.body, card: summary });
    });

    it("seals the card under the key a request that died before its append had stored, and shreds it on delete", async () => {
      const first = await store("sealed-then-crash", "user_2");
      expect(first.status).toBe(201);
      // A request under this key that died between sealing its method's card and appending: its
      // claim names a method whose data key is stored and whose stream does not exist.
      const unwritten = newId();
      const { dataKeyId } = await sealCard(api.database.db, createSecretBox(parseMasterKeys(testSecrets.SECRETS_MASTER_KEYS)), { paymentMethodId: unwritten, dataKeyId: newId() }, { number: new Secret("4242424242424242") }, "fp_test", new Date());
      await crashAfterAppend("sealed-then-crash");
      await api.database.db.updateTable("idempotency_records").set({ resource_id: unwritten }).where("idempotency_key", "=", "sealed-then-crash").execute();

      const retry = await store("sealed-then-crash", "user_2");
      expect(retry.status, retry.text).toBe(201);
      expect(retry.body.id).toBe(unwritten);
      const keys = await api.database.db.selectFrom("payment_method_keys").select("data_key_id").where("payment_method_id", "=", unwritten).execute();
      expect(keys).toEqual([{ data_key_id: dataKeyId }]);
      const sale = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "user_2", paymentMethodId: unwritten },
      });
      expect(sale.status, sale.text).toBe(201);
      expect(sale.body.status).toBe("approved");

      expect((await api.request("DELETE", `/v1/payment-methods/${unwritten}`, { key: acme.key })).status).toBe(204);
      expect(await keyRows(unwritten)).toBe(0);
    });

    const lostConnectionSkip = target === "postgres" ? undefined : "a connection the server ends needs PostgreSQL";
    if (lostConnectionSkip) console.warn(`SKIPPED a payment method whose request loses its database connection after the append: ${lostConnectionSkip}`);

    it.skipIf(lostConnectionSkip)("answers 503 a request whose database connection ends after its append, and its retry answers that same method", async () => {
      // The read model is locked, so the request's wait for its own write queries it after the
      // append; the server then ends that query's connection, as a restart would.
      const failed = await answeredWhileConnectionsToTableEnd(api.database.url, "payment_methods", () => store("append-then-lost", "user_3"));
      expect(failed.status, failed.text).toBe(503);
      expect(failed.body.code).toBe("service_unavailable");
      expect(failed.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);

      const retry = await store("append-then-lost", "user_3");
      expect(retry.status, retry.text).toBe(201);
      const listed = await api.request("GET", "/v1/payment-methods?userId=user_3", { key: acme.key });
      expect(listed.body.data.map((method: Json) => method.id)).toEqual([retry.body.id]);
      expect(await keyRows(retry.body.id)).toBe(1);
    });
  });
}
