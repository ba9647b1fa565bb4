import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, subjectOf, typeOf, type WebhookReceiver } from "../support/webhook-receiver.ts";

/** The dispatcher's default: requests awaiting one endpoint's answer at a time. */
const MAX_IN_FLIGHT_PER_ENDPOINT = 8;
const SALES = 12;

for (const target of testDatabaseTargets()) {
  describe(`webhook requests in flight to one endpoint, on ${target}`, () => {
    let receiver: WebhookReceiver;
    let api: TestService;

    beforeAll(async () => {
      receiver = await startWebhookReceiver("never");
      api = await startTestService(target, loopbackWebhookEnvironment({ dispatchIntervalMs: 50 }));
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    it(`are at most ${MAX_IN_FLIGHT_PER_ENDPOINT} while it does not answer; once it does, the rest follow, each transaction in order`, async () => {
      const acme = await api.createClient("Acme");
      const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(configured.status, configured.text).toBe(201);
      const endpoint = await api.request("POST", "/v1/webhook-endpoints", {
        key: acme.key,
        body: { url: `${receiver.url}/slow`, events: ["*"] },
      });
      expect(endpoint.status, endpoint.text).toBe(201);

      for (let i = 0; i < SALES; i += 1) {
        const sale = await api.request("POST", "/v1/transactions/sale", {
          key: acme.key,
          body: {
            processor: "processor_a",
            amount: 1000 + i,
            currency: "USD",
            card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
            userId: "user_1",
            reference: `order-${i}`,
          },
        });
        expect(sale.status, sale.text).toBe(201);
      }
      // Every sale's transaction.pending is due at once; the endpoint answers none of them.
      await receiver.waitFor((requests) => requests.length >= MAX_IN_FLIGHT_PER_ENDPOINT, { path: "/slow", timeoutMs: 10_000 });
      await sleep(1_000); // twenty of the dispatcher's looks
      expect(receiver.at("/slow")).toHaveLength(MAX_IN_FLIGHT_PER_ENDPOINT);

      receiver.setBehaviour(200);
      receiver.answerHeld(200);
      const all = await receiver.waitFor((requests) => requests.length >= SALES * 2, { path: "/slow", timeoutMs: 15_000 });
      expect(all).toHaveLength(SALES * 2);
      const seen = new Set<string>();
      for (const request of all) {
        const subject = subjectOf(request) ?? "no subject";
        if (typeOf(request) === "transaction.approved") expect(seen.has(subject)).toBe(true);
        else seen.add(subject);
      }
    });
  });
}
