import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApiDocument } from "../../src/api/openapi/document.ts";
import { ids } from "../../src/api/openapi/examples.ts";
import { operationDocs } from "../../src/api/openapi/operations.ts";
import { processors } from "../../src/domain/host-configurations/schemas.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { type ApiResponse, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

/** The documented examples hold for the real service: each request example is sent as it is, with real ids. */
for (const target of testDatabaseTargets()) {
  describe(`the API reference's examples on ${target}`, () => {
    let api: TestService;
    /** Example ids, and the ids the service gave the same things. */
    const realIds = new Map<string, string>();
    const sent = new Set<string>();

    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api.stop());

    /** Sends operation `key`'s documented request body, its example ids replaced by real ones. */
    async function sendExample(key: string, { apiKey = TEST_ADMIN_KEY, path = {} as Record<string, string>, headers = {} } = {}) {
      const [method = "", template = ""] = key.split(" ");
      let body = JSON.stringify(operationDocs[key]?.request);
      for (const [exampleId, realId] of realIds) body = body.replaceAll(exampleId, realId);
      const url = template.replace(/\{(\w+)\}/g, (_, name: string) => path[name] ?? `{${name}}`);
      sent.add(key);
      return api.request(method, url, { key: apiKey, body: JSON.parse(body), headers });
    }
    const created = (response: ApiResponse, status = 201) => {
      expect(response.status, response.text).toBe(status);
      return response.body;
    };

    it("serves at /openapi.json the document built in-process", async () => {
      const served = await api.request("GET", "/openapi.json", { key: null });
      expect(served.body).toEqual(await buildApiDocument());
    });

    it("accepts every documented request body", async () => {
      const client = created(await sendExample("POST /v1/clients"));
      realIds.set(ids.client, client.id);
      const clientPath = { clientId: client.id };
      expect(created(await sendExample("PUT /v1/clients/{clientId}/limits", { path: clientPath }), 200).limits).toHaveLength(1);
      const { key } = created(await sendExample("POST /v1/clients/{clientId}/api-keys", { path: clientPath }));

      const configurations = new Map<string, string>();
      for (const processor of processors) {
        const base = `/v1/host-configurations/${processor}`;
        const configuration = created(await sendExample(`POST ${base}`));
        expect(configuration).toMatchObject({ processor, clientId: client.id, version: 1, isDefault: true });
        configurations.set(processor, configuration.id);
        const path = { id: configuration.id };
        expect(created(await sendExample(`PUT ${base}/{id}`, { path, headers: { "if-match": '"1"' } }), 200)).toMatchObject({ version: 2 });
        expect(created(await api.request("PUT", `${base}/${configuration.id}/default`), 200)).toMatchObject({ isDefault: true });
      }
      realIds.set(ids.hostConfiguration, configurations.get("processor_a")!);

      const paymentMethod = created(await sendExample("POST /v1/payment-methods", { apiKey: key }));
      expect(paymentMethod).toMatchObject({ type: "card", clientId: client.id, card: { last4: "4242" } });
      realIds.set(ids.paymentMethod, paymentMethod.id);

      const pay = async (kind: "authorization" | "sale", exampleId: string) => {
        const transaction = created(await sendExample(`POST /v1/transactions/${kind}`, { apiKey: key }));
        expect(transaction).toMatchObject({ type: kind, status: "approved", hostConfigurationId: configurations.get("processor_a") });
        realIds.set(exampleId, transaction.id);
      };
      await pay("authorization", ids.authorization);
      await pay("authorization", ids.releasedAuthorization);
      await pay("sale", ids.sale);
      expect(created(await sendExample("POST /v1/transactions/capture", { apiKey: key }))).toMatchObject({ type: "capture", status: "approved" });
      expect(created(await sendExample("POST /v1/transactions/refund", { apiKey: key }))).toMatchObject({ type: "refund", status: "approved" });
      expect(created(await sendExample("POST /v1/transactions/void", { apiKey: key }))).toMatchObject({ type: "void", status: "approved" });

      const endpoint = created(await sendExample("POST /v1/webhook-endpoints", { apiKey: key }));
      const endpointPath = { id: endpoint.id };
      expect(created(await sendExample("PATCH /v1/webhook-endpoints/{id}", { apiKey: key, path: endpointPath }), 200)).toMatchObject({ enabled: false });
      expect(created(await sendExample("POST /v1/webhook-endpoints/{id}/rotate-secret", { apiKey: key, path: endpointPath }), 200).secret).toMatch(/^whsec_/);
      expect(created(await sendExample("POST /v1/webhook-endpoints/{id}/test", { apiKey: key, path: endpointPath }), 202)).toMatchObject({ status: "pending" });
      // No delivery was made to redeliver: the body passed validation when the answer is about the delivery.
      const redelivery = await sendExample("POST /v1/webhook-deliveries/{id}/redeliver", { apiKey: key, path: { id: ids.webhookDelivery } });
      expect(redelivery.body).toMatchObject({ status: 404, detail: "No such webhook delivery." });

      const documented = Object.entries(operationDocs).filter(([, entry]) => entry.request !== undefined).map(([documentedKey]) => documentedKey);
      expect([...sent].sort()).toEqual(documented.sort());
    });
  });
}
