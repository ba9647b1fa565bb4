import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: number.startsWith("37") ? "1234" : "123" });

for (const target of testDatabaseTargets()) {
  describe(`payments on ${target}`, () => {
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    let globex: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      api = await startTestService(target);
      acme = await api.createClient("Acme");
      globex = await api.createClient("Globex");
      for (const client of [acme, globex]) {
        for (const processor of ["processor_a", "processor_b", "processor_c", "processor_d"] as const) {
          const created = await api.request("POST", `/v1/host-configurations/${processor}`, {
            body: { ...validBodies[processor], clientId: client.clientId },
          });
          expect(created.status).toBe(201);
        }
      }
    });
    afterAll(() => api.stop());

    const pay = (type: "sale" | "authorization", number: string, extra: Record<string, unknown> = {}, key = acme.key) =>
      api.request("POST", `/v1/transactions/${type}`, {
        key,
        body: { processor: "processor_a", amount: 1099, currency: "USD", card: card(number), userId: "user_42", ...extra },
      });

    it("approves a sale and returns the transaction without card data", async () => {
      const sale = await pay("sale", "4242424242424242", { reference: "order-1001", metadata: { orderId: "1001" } });
      expect(sale.status).toBe(201);
      expect(sale.body).toMatchObject({
        type: "sale",
        status: "approved",
        clientId: acme.clientId,
        amount: 1099,
        currency: "USD",
        capturedAmount: 1099,
        card: { brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 },
        processorResponse: { code: "00" },
        reference: "order-1001",
        metadata: { orderId: "1001" },
      });
      expect(sale.text).not.toContain("4242424242424242");
      const read = await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: acme.key });
      expect(read.body).toEqual(sale.body);
      expect((await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: globex.key })).status).toBe(404);
    });

    it.each([
      ["4000000000000002", 402, "card_declined", "05"],
      ["4000000000009995", 402, "insufficient_funds", "51"],
      ["4000000000000069", 402, "expired_card", "54"],
      ["4000000000000127", 402, "incorrect_cvc", "N7"],
      ["4000000000000119", 502, "processor_error", "96"],
    ])("card %s is answered %i %s with the recorded transaction and the processor's reason", async (number, status, code, responseCode) => {
      const response = await pay("sale", number);
      expect(response.status).toBe(status);
      expect(response.body.code).toBe(code);
      const { transaction } = response.body;
      expect(transaction).toMatchObject(
        status === 402 ? { status: "declined", failureReason: null } : { status: "failed", failureReason: "processor_error" },
      );
      expect(response.body.detail).toContain(`: ${transaction.processorResponse.message} (${responseCode}).`);
    });

    it("names rejected host credentials, and how to replace them, in a 502's detail and the transaction", async () => {
      const initech = await api.createClient("Initech");
      const configured = await api.request("POST", "/v1/host-configurations/processor_c", {
        body: { ...validBodies.processor_c, clientId: initech.clientId, credentials: { username: "acme", password: "invalid-password" } },
      });
      expect(configured.status).toBe(201);
      const sale = await pay("sale", "4242424242424242", { processor: "processor_c" }, initech.key);
      expect(sale.status).toBe(502);
      expect(sale.body.code).toBe("processor_authentication_failed");
      expect(sale.body.detail).toContain(`The processor rejected the credentials of host configuration ${configured.body.id}`);
      expect(sale.body.detail).toContain(`PUT /v1/host-configurations/processor_c/${configured.body.id}`);
      expect(sale.text).not.toContain("invalid-password");
      const read = await api.request("GET", `/v1/transactions/${sale.body.transaction.id}`, { key: initech.key });
      expect(read.body).toMatchObject({ status: "failed", failureReason: "processor_authentication_failed" });
    });

    it("leaves a timed-out sale pending (504) until the resolver learns it was approved, its card never written", async () => {
      const response = await pay("sale", "4000000000000408", { card: { ...card("4000000000000408"), cvc: "987" } });
      expect(response.status).toBe(504);
      expect(response.body.code).toBe("processor_timeout");
      expect(response.body.transaction.status).toBe("pending");
      await vi.waitFor(
        async () => {
          const read = await api.request("GET", `/v1/transactions/${response.body.transaction.id}`, { key: acme.key });
          expect(read.body.status).toBe("approved");
        },
        { timeout: 10_000, interval: 100 },
      );
      // The call that timed out and the resolver's inquiries are logged; the card is in none of it.
      const everything = api.logs() + response.text + (await everythingStored(api.database.db));
      expect(everything).not.toContain("4000000000000408");
      expect(everything).not.toMatch(/"987"|:987[,}]/);
    });

    it("captures in parts, refunds and voids, with every amount rule", async () => {
      const auth = await pay("authorization", "5555555555554444", { amount: 1000 });
      expect(auth.status).toBe(201);
      const capture = await api.request("POST", "/v1/transactions/capture", {
        key: acme.key,
        body: { transactionId: auth.body.id, amount: 600 },
      });
      expect(capture.status).toBe(201);
      expect(capture.body).toMatchObject({ type: "capture", amount: 600, parentTransactionId: auth.body.id });
      const tooMuch = await api.request("POST", "/v1/transactions/capture", {
        key: acme.key,
        body: { transactionId: auth.body.id, amount: 500 },
      });
      expect(tooMuch.status).toBe(422);
      expect(tooMuch.body.code).toBe("amount_exceeds_capturable");
      const authAfter = await api.request("GET", `/v1/transactions/${auth.body.id}`, { key: acme.key });
      expect(authAfter.body.capturedAmount).toBe(600);

      const refund = await api.request("POST", "/v1/transactions/refund", {
        key: acme.key,
        body: { transactionId: capture.body.id, amount: 200, reason: "damaged" },
      });
      expect(refund.status).toBe(201);
      const overRefund = await api.request("POST", "/v1/transactions/refund", {
        key: acme.key,
        body: { transactionId: capture.body.id, amount: 401 },
      });
      expect(overRefund.status).toBe(422);
      expect(overRefund.body.code).toBe("amount_exceeds_refundable");
      const voidRefunded = await api.request("POST", "/v1/transactions/void", {
        key: acme.key,
        body: { transactionId: capture.body.id },
      });
      expect(voidRefunded.status).toBe(409);
      expect(voidRefunded.body.code).toBe("invalid_transaction_state");

      const other = await pay("authorization", "378282246310005");
      const voided = await api.request("POST", "/v1/transactions/void", { key: acme.key, body: { transactionId: other.body.id } });
      expect(voided.status).toBe(201);
      const captureVoided = await api.request("POST", "/v1/transactions/capture", {
        key: acme.key,
        body: { transactionId: other.body.id },
      });
      expect(captureVoided.status).toBe(409);
    });

    it("says which transactions a capture or refund follows, in English with the right article", async () => {
      const sale = await pay("sale", "4242424242424242", { amount: 500 });
      const authorization = await pay("authorization", "4242424242424242", { amount: 500 });
      const follow = async (type: "capture" | "refund", transactionId: string) => {
        const response = await api.request("POST", `/v1/transactions/${type}`, { key: acme.key, body: { transactionId } });
        expect(response.status, response.text).toBe(409);
        expect(response.body.code).toBe("invalid_transaction_state");
        return response.body.detail;
      };
      expect(await follow("capture", sale.body.id)).toBe("Only an authorization can be captured, not a sale.");
      expect(await follow("refund", authorization.body.id)).toBe("Only a sale or a capture can be refunded, not an authorization.");
    });

    it("refuses a client's follow-up on another client's transaction with 404", async () => {
      const sale = await pay("sale", "4242424242424242");
      const refund = await api.request("POST", "/v1/transactions/refund", {
        key: globex.key,
        body: { transactionId: sale.body.id },
      });
      expect(refund.status).toBe(404);
    });

    it("validates the card: Luhn, expiry", async () => {
      const luhn = await pay("sale", "4242424242424241");
      expect(luhn.status).toBe(400);
      expect(luhn.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: "card.number" })]));
      const expired = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: { ...card("4242424242424242"), expYear: 2020 } },
      });
      expect(expired.status).toBe(400);
    });

    it("refuses text PostgreSQL cannot store with 400, before anything is recorded", async () => {
      // JSON.stringify keeps "\ud800" as an escape, so the body reaches the server as sent.
      for (const extra of [
        { userId: "user \ud800" },
        { reference: "ref \u0000" },
        { metadata: { note: "lone \udc00" } },
        { metadata: { "key \u0000": "value" } },
      ]) {
        const refused = await pay("sale", "4242424242424242", extra);
        expect(refused.status).toBe(400);
        expect(refused.body.code).toBe("validation_error");
      }
      const multiline = await pay("sale", "4242424242424242", { metadata: { note: "line 1\nline 2 😀" } });
      expect(multiline.status).toBe(201);
      expect(multiline.body.metadata).toEqual({ note: "line 1\nline 2 😀" });
    });

    it("10 racing captures on one authorization approve exactly the ones that fit", async () => {
      const auth = await pay("authorization", "4242424242424242", { amount: 1000 });
      const captures = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.request("POST", "/v1/transactions/capture", { key: acme.key, body: { transactionId: auth.body.id, amount: 300 } }),
        ),
      );
      expect(captures.filter((r) => r.status === 201)).toHaveLength(3);
      expect(captures.filter((r) => r.status === 422)).toHaveLength(7);
      const after = await api.request("GET", `/v1/transactions/${auth.body.id}`, { key: acme.key });
      expect(after.body.capturedAmount).toBe(900);
    });

    it("10 racing refunds on one sale never over-refund", async () => {
      const sale = await pay("sale", "4242424242424242", { amount: 1000 });
      const refunds = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.request("POST", "/v1/transactions/refund", { key: acme.key, body: { transactionId: sale.body.id, amount: 250 } }),
        ),
      );
      expect(refunds.filter((r) => r.status === 201)).toHaveLength(4);
      expect(refunds.filter((r) => r.status === 422)).toHaveLength(6);
      const after = await api.request("GET", `/v1/transactions/${sale.body.id}`, { key: acme.key });
      expect(after.body.refundedAmount).toBe(1000);
    });

    it("replays every POST with the same Idempotency-Key instead of charging twice", async () => {
      const headers = { "idempotency-key": `sale-${Math.random()}` };
      const body = { processor: "processor_b", amount: 500, currency: "EUR", card: card("4242424242424242"), userId: "u1" };
      const first = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body, headers });
      const again = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body, headers });
      expect(first.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.id).toBe(first.body.id);

      const declinedHeaders = { "idempotency-key": `declined-${Math.random()}` };
      const declinedBody = { ...body, card: card("4000000000000002") };
      const declined = await api.request("POST", "/v1/transactions/sale", { key: acme.key, body: declinedBody, headers: declinedHeaders });
      const declinedAgain = await api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        body: declinedBody,
        headers: declinedHeaders,
      });
      expect(declinedAgain.status).toBe(402);
      expect(declinedAgain.body.transaction.id).toBe(declined.body.transaction.id);

      for (const [path, follow] of [
        ["/v1/transactions/refund", { transactionId: first.body.id, amount: 100 }],
        ["/v1/transactions/void", { transactionId: (await pay("authorization", "4242424242424242")).body.id }],
        ["/v1/transactions/capture", { transactionId: (await pay("authorization", "4242424242424242")).body.id, amount: 10 }],
      ] as const) {
        const followHeaders = { "idempotency-key": `${path}-${Math.random()}` };
        const once = await api.request("POST", path, { key: acme.key, body: follow, headers: followHeaders });
        const twice = await api.request("POST", path, { key: acme.key, body: follow, headers: followHeaders });
        expect(once.status).toBe(201);
        expect(twice.headers.get("idempotent-replayed")).toBe("true");
        expect(twice.body.id).toBe(once.body.id);
      }
    });

    it("keeps every transaction route tenant-isolated", async () => {
      const auth = await pay("authorization", "4242424242424242");
      for (const path of ["/v1/transactions/capture", "/v1/transactions/void", "/v1/transactions/refund"]) {
        const response = await api.request("POST", path, { key: globex.key, body: { transactionId: auth.body.id } });
        expect(response.status).toBe(404);
      }
      expect((await api.request("GET", `/v1/transactions/${auth.body.id}`)).status).toBe(200);
    });

    it("never stores, returns or logs a card number, CVC or processor credential", async () => {
      const withCvc = (number: string) => ({ ...card(number), cvc: number.startsWith("37") ? "9876" : "987" });
      const numbers = ["4242424242424242", "5555555555554444", "378282246310005", "4000000000000002", "4000000000000119"];
      const answers = [];
      for (const number of numbers) answers.push(await pay("sale", number, { amount: 777, card: withCvc(number) }));
      // Every connector with credentials, and a card refused before any processor (400), whose problem names only the field.
      for (const processor of ["processor_b", "processor_c", "processor_d"]) answers.push(await pay("sale", "4242424242424242", { processor, card: withCvc("4242424242424242") }));
      const refused = await pay("sale", "4242424242424241", { card: withCvc("4242424242424241") });
      expect(refused.status).toBe(400);
      answers.push(refused);
      // A stored card, decrypted from the vault for its payment, with a CVC beside it.
      const method = await api.request("POST", "/v1/payment-methods", {
        key: acme.key,
        body: { card: { number: "4111111111111111", expMonth: 12, expYear: 2030 }, userId: "user_42" },
      });
      expect(method.status).toBe(201);
      answers.push(await pay("sale", "4111111111111111", { card: undefined, paymentMethodId: method.body.id, cvc: "987" }));
      expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 402, 502, 201, 201, 201, 400, 201]);
      const everything = api.logs() + answers.map((answer) => answer.text).join("\n") + (await everythingStored(api.database.db));
      // The summary is there (so the search reads what is stored, where JSON's quotes come doubled); the BIN beside a fingerprint never is.
      expect(everything).toMatch(/"{1,2}last4"{1,2}:"{1,2}0005"/);
      expect(everything).not.toContain('"bin"');
      for (const number of [...numbers, "4242424242424241", "4111111111111111"]) expect(everything).not.toContain(number);
      expect(everything).not.toMatch(/"cvc"/);
      // A CVC is three or four digits, which random ids contain by chance: look for it as a value.
      expect(everything).not.toMatch(/"987"|"9876"|:987[,}]|:9876[,}]/);
      for (const processor of ["processor_b", "processor_c", "processor_d"] as const) {
        const { username: _notSecret, ...secrets } = validBodies[processor].credentials as Record<string, string>;
        for (const secret of Object.values(secrets)) expect(everything).not.toContain(secret);
      }
    });

    it("needs a usable host configuration: missing or disabled is 422 and reaches no processor", async () => {
      const initech = await api.createClient("Initech");
      const sale = (extra: Record<string, unknown> = {}) => pay("sale", "4242424242424242", extra, initech.key);
      const missing = await sale();
      expect(missing.status).toBe(422);
      expect(missing.body.code).toBe("host_configuration_missing");

      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: initech.clientId, enabled: false },
      });
      const disabled = await sale();
      expect(disabled.status).toBe(422);
      expect(disabled.body.code).toBe("host_configuration_disabled");
      const named = await sale({ hostConfigurationId: created.body.id });
      expect(named.body.code).toBe("host_configuration_disabled");

      const second = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: initech.clientId },
      });
      const approved = await sale();
      expect(approved.status).toBe(201);
      expect(approved.body.hostConfigurationId).toBe(second.body.id);
      // The refused sales left no transaction behind.
      const history = await api.request("GET", "/v1/transactions", { key: initech.key });
      expect(history.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([approved.body.id]);

      // The host configuration's version travels with the transaction's intent.
      await api.request("PUT", `/v1/host-configurations/processor_a/${second.body.id}`, {
        body: { ...validBodies.processor_a, clientId: initech.clientId, name: "v2" },
      });
      const afterUpdate = await sale();
      const versions = await sql<{ version: number }>`
        select (data->>'hostConfigurationVersion')::int as version from events
        where type = 'TransactionInitiated.v1' and data->>'transactionId' in (${approved.body.id}, ${afterUpdate.body.id})
        order by position`.execute(api.database.db);
      expect(versions.rows.map((row) => row.version)).toEqual([1, 2]);
    });

    it("admin keys do not create transactions", async () => {
      const response = await api.request("POST", "/v1/transactions/sale", {
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: card("4242424242424242") },
      });
      expect(response.status).toBe(403);
    });
  });
}
