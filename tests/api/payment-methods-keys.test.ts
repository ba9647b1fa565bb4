import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rewrapDataKeys } from "../../src/vault/card-vault.ts";
import { createSecretBox, generateMasterKey, parseMasterKeys } from "../../src/crypto/secrets.ts";
import { createLogger } from "../../src/logger.ts";
import { startService } from "../../src/service.ts";
import { decryptNumbers, exportLog } from "../support/card-attacker.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { apiRequest, capturedLogs, type Json, type RequestOptions, testConfig, testSecrets } from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";

/** The vault's keys: crypto-shredding on DELETE, master key rotation, and what reaches the disk. */

const OLD_KEYS = testSecrets.SECRETS_MASTER_KEYS;
const NEW_KEY = `next:${generateMasterKey()}`;

/** A service on `database` with these master keys, and the API calls a test makes to it. */
async function serviceOn(database: TestDatabase | undefined, environment: Record<string, string>) {
  const { lines, sink } = capturedLogs();
  const config = testConfig(database?.url, environment);
  const service = await startService(config, createLogger("info", sink), database && { ...database, close: async () => {} });
  return {
    logs: () => lines.join(""),
    request: (method: string, route: string, options?: RequestOptions) => apiRequest(service.url, method, route, options),
    stop: () => service.stop(),
  };
}
type Api = Awaited<ReturnType<typeof serviceOn>>;

/** A client with a processor_a host configuration (which has no credentials: nothing else needs the old master key). */
async function merchant(api: Api): Promise<string> {
  const client = await api.request("POST", "/v1/clients", { body: { name: "Acme" } });
  await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.body.id } });
  return (await api.request("POST", `/v1/clients/${client.body.id}/api-keys`, { body: {} })).body.key;
}

const storeCard = async (api: Api, key: string, number: string): Promise<Json> => {
  const created = await api.request("POST", "/v1/payment-methods", { key, body: { card: { number, expMonth: 12, expYear: 2030 }, userId: "u1" } });
  expect(created.status, created.text).toBe(201);
  return created.body;
};
const sale = (api: Api, key: string, paymentMethodId: string) =>
  api.request("POST", "/v1/transactions/sale", {
    key,
    body: { processor: "processor_a", amount: 1000, currency: "USD", userId: "u1", paymentMethodId },
  });

for (const target of testDatabaseTargets()) {
  describe(`the card vault's keys on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(() => database.close());

    it("after DELETE, no copy taken before it gives the number back, with every master key", async () => {
      const api = await serviceOn(database, {});
      try {
        const key = await merchant(api);
        const kept = await storeCard(api, key, "4000002500003155");
        const method = await storeCard(api, key, "4000002760003184");
        expect((await sale(api, key, method.id)).status).toBe(201);
        const exported = JSON.stringify(await exportLog(api));
        const everyKey = createSecretBox(parseMasterKeys(`${OLD_KEYS},${NEW_KEY}`));
        // The attack works while the key exists: it is the deletion that stops it.
        const before = decryptNumbers(exported + (await everythingStored(database.db)), everyKey);
        expect(before.sort()).toEqual(["4000002500003155", "4000002760003184"]);

        expect((await api.request("DELETE", `/v1/payment-methods/${method.id}`, { key })).status).toBe(204);
        const after = decryptNumbers(exported + JSON.stringify(await exportLog(api)) + (await everythingStored(database.db)), everyKey);
        expect(after).toEqual(["4000002500003155"]);
        expect((await sale(api, key, kept.id)).status).toBe(201);
      } finally {
        await api.stop();
      }
    });

    it("rotates the master key: rewraps the data keys without touching an event, and stored cards pay across it and restarts", async () => {
      let api = await serviceOn(database, { SECRETS_MASTER_KEYS: OLD_KEYS });
      const key = await merchant(api);
      const method = await storeCard(api, key, "5105105105105100");
      expect((await sale(api, key, method.id)).status).toBe(201);
      await api.stop();
      const eventsBefore = await sql<{ row: string }>`select e::text as row from events e order by position`.execute(database.db);

      api = await serviceOn(database, { SECRETS_MASTER_KEYS: `${OLD_KEYS},${NEW_KEY}` });
      const rotated = createSecretBox(parseMasterKeys(`${OLD_KEYS},${NEW_KEY}`));
      expect(await rewrapDataKeys(database.db, rotated, () => new Date())).toBeGreaterThan(0);
      const wrappers = await database.db.selectFrom("payment_method_keys").select("master_key_id").distinct().execute();
      expect(wrappers).toEqual([{ master_key_id: "next" }]);
      expect(await rewrapDataKeys(database.db, rotated, () => new Date())).toBe(0);
      const eventsAfter = await sql<{ row: string }>`select e::text as row from events e order by position`.execute(database.db);
      expect(eventsAfter.rows.slice(0, eventsBefore.rows.length)).toEqual(eventsBefore.rows);
      expect((await sale(api, key, method.id)).status).toBe(201);
      await api.stop();

      // The old master key retired: the vault no longer needs it.
      api = await serviceOn(database, { SECRETS_MASTER_KEYS: NEW_KEY });
      try {
        const paid = await sale(api, key, method.id);
        expect(paid.status, paid.text).toBe(201);
        const events = await api.request("GET", `/v1/payment-methods/${method.id}/events`, { key });
        expect(events.body.events.map((event: Json) => event.type)).toEqual(["PaymentMethodCreated.v1", ...Array(3).fill("TransactionInitiated.v1")]);
      } finally {
        await api.stop();
      }
    });
  });
}

describe("the card vault on an embedded DATA_DIR", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "vault-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  // The service, and its embedded database on disk, start inside the test: the default 20 s
  // was seen running out on a loaded machine before any assertion.
  it("writes no card number to any file of the data directory, nor to the logs", { timeout: 60_000 }, async () => {
    const numbers = ["4000000760000002", "4000001240000000"];
    const api = await serviceOn(undefined, { DATA_DIR: dataDir, DATABASE_URL: "" });
    let logs: string;
    try {
      const key = await merchant(api);
      for (const number of numbers) {
        const method = await storeCard(api, key, number);
        expect((await sale(api, key, method.id)).status).toBe(201);
      }
      const deleted = await storeCard(api, key, numbers[0]!);
      await api.request("DELETE", `/v1/payment-methods/${deleted.id}`, { key });
      logs = api.logs();
    } finally {
      await api.stop();
    }
    const files = await readdir(dataDir, { recursive: true, withFileTypes: true });
    let searched = 0;
    for (const file of files.filter((entry) => entry.isFile())) {
      const bytes = await readFile(path.join(file.parentPath, file.name));
      searched += bytes.length;
      for (const number of numbers) expect(bytes.includes(number), `${file.name} holds ${number}`).toBe(false);
    }
    expect(searched).toBeGreaterThan(1_000_000);
    for (const number of numbers) expect(logs).not.toContain(number);
  });
});
