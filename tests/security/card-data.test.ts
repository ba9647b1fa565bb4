import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStoredKeys } from "../../src/crypto/fingerprint-key-store.ts";
import { createSecretBox, parseMasterKeys } from "../../src/crypto/secrets.ts";
import { decryptNumbers, exportLog, filesUnder, known, type KnownRequest, keysIn, searchNumbers } from "../support/card-attacker.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, testSecrets, type TestService } from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";

// API.md, what stays of a card: an attacker who copies everything (every table, DATA_DIR, an
// export, the logs) recovers no deleted card even holding every key that survives, and no card at
// all without the master keys. The fingerprint key is the generated one here (kept encrypted under
// the master keys), so DATA_DIR holds what an embedded deployment's does; the master keys are given.

const expiry = { expMonth: 12, expYear: 2030 };
/** Stored, charged, then deleted. */
const DELETED = ["4000056655665556", "5200828282828210"];
/** Stored and kept. */
const KEPT = "6011111111111117";
/** Sent inline, each with an Idempotency-Key. */
const INLINE = ["4000002500003155", "4000002760003184"];

const sale = (card: object) => ({ processor: "processor_a", amount: 1_000, currency: "USD", userId: "u1", ...card });
/** The requests made with each card, whose bodies the attacker knows but for the number (their Idempotency-Key records hashed them). */
const stored: KnownRequest = { method: "POST", url: "/v1/payment-methods", body: (number) => ({ card: { number, ...expiry }, userId: "u1" }) };
const paid: KnownRequest = { method: "POST", url: "/v1/transactions/sale", body: (number) => sale({ card: { number, ...expiry, cvc: "123" } }) };
const deletedCards = DELETED.map((number) => known(number, [stored]));
const inlineCards = INLINE.map((number) => known(number, [paid]));

for (const target of testDatabaseTargets()) {
  describe(`an attacker holding every copy of the card data, on ${target}`, () => {
    let api: TestService;
    let dataDir: string;
    let copy: string;
    /** Where a key kept in plain text would be: the data directory's files and the logs. */
    let filesAndLogs: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), "ledger-attacked-"));
      api = await startTestService(target, { DATA_DIR: dataDir, CARD_FINGERPRINT_KEY: "" });
      const { clientId, key } = await api.createClient();
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId } });
      expect(configured.status, configured.text).toBe(201);
      const post = async (url: string, body: object, idempotencyKey: string) => {
        const answer = await api.request("POST", url, { key, body, headers: { "idempotency-key": idempotencyKey } });
        expect(answer.status, answer.text).toBe(201);
        return answer.body;
      };
      const methods = [];
      for (const [index, number] of [...DELETED, KEPT].entries()) {
        const method = await post("/v1/payment-methods", { card: { number, ...expiry }, userId: "u1" }, `store-${index}`);
        await post("/v1/transactions/sale", sale({ paymentMethodId: method.id, cvc: "123" }), `pay-${index}`);
        methods.push(method);
      }
      for (const [index, number] of INLINE.entries()) {
        await post("/v1/transactions/sale", sale({ card: { number, ...expiry, cvc: "123" } }), `inline-${index}`);
      }
      for (const method of methods.slice(0, DELETED.length)) {
        expect((await api.request("DELETE", `/v1/payment-methods/${method.id}`, { key })).status).toBe(204);
      }
      filesAndLogs = `${await filesUnder(dataDir)}\n${api.logs()}`;
      copy = [await everythingStored(api.database.db), JSON.stringify(await exportLog(api)), filesAndLogs].join("\n");
    });

    afterAll(async () => {
      await api?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it("holding the master keys and every fingerprint key that survives: no deleted card, by decryption or by search", async () => {
      const masterKeys = createSecretBox(parseMasterKeys(testSecrets.SECRETS_MASTER_KEYS));
      const fingerprintKeys = [...(await openStoredKeys(api.database.db, masterKeys)).keys.values()];
      expect([...new Set(decryptNumbers(copy, masterKeys))]).toEqual([KEPT]);
      const searched = searchNumbers(copy, [...deletedCards, ...inlineCards], fingerprintKeys);
      // The inline cards' fingerprints give them away to whoever holds the fingerprint key (a key of
      // the master keys' rank): the search works. The deleted cards' are gone with their keys.
      expect(searched).toEqual([...INLINE].sort());
    });

    it("without the master keys: no card at all, with every key-like value of the files and logs tried", () => {
      const searched = searchNumbers(copy, [...deletedCards, known(KEPT, [stored]), ...inlineCards], keysIn(filesAndLogs));
      expect(searched).toEqual([]);
    });

    it("never keeps a BIN beside a fingerprint, a fingerprint key in plain text, or a card number", async () => {
      const masterKeys = createSecretBox(parseMasterKeys(testSecrets.SECRETS_MASTER_KEYS));
      for (const key of (await openStoredKeys(api.database.db, masterKeys)).keys.values()) {
        expect(copy).not.toContain(key.toString("base64"));
        expect(copy).not.toContain(key.toString("hex"));
      }
      expect(copy).not.toContain('"bin"');
      for (const number of [...DELETED, KEPT, ...INLINE]) expect(copy).not.toContain(number);
    });
  });
}
