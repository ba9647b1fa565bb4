import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhooksProjection } from "../../src/projections/webhooks/webhooks-projection.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { whileProjectionStalled } from "../support/stalled-projection.ts";
import { loopbackWebhookEnvironment } from "../support/webhook-receiver.ts";

const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

for (const target of testDatabaseTargets()) {
  describe(`webhook endpoints written while their projection is stalled, on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target, loopbackWebhookEnvironment());
    });
    afterAll(() => api.stop());

    it("are answered as written, and read so once the projection catches up", async () => {
      const client = await api.createClient("Stalled webhooks");
      const url = "http://127.0.0.1:9/hooks";
      let id = "";
      await whileProjectionStalled(api.database.db, webhooksProjection.name, async () => {
        const created = await api.request("POST", "/v1/webhook-endpoints", {
          key: client.key,
          body: { url, events: ["transaction.approved"], description: "stalled" },
        });
        expect(created, created.text).toMatchObject({
          status: 201,
          body: { clientId: client.clientId, url, events: ["transaction.approved"], description: "stalled", enabled: true },
        });
        expect(created.body.secret).toMatch(SECRET);
        id = String(created.body.id);
      });
      // A change needs the endpoint in the read model (to see it exists, and whose it is).
      await vi.waitFor(
        async () => expect((await api.request("GET", `/v1/webhook-endpoints/${id}`, { key: client.key })).status).toBe(200),
        { timeout: 10_000 },
      );
      await whileProjectionStalled(api.database.db, webhooksProjection.name, async () => {
        const changed = await api.request("PATCH", `/v1/webhook-endpoints/${id}`, {
          key: client.key,
          body: { description: "renamed", enabled: false },
        });
        expect(changed, changed.text).toMatchObject({ status: 200, body: { id, url, description: "renamed", enabled: false } });
        const rotated = await api.request("POST", `/v1/webhook-endpoints/${id}/rotate-secret`, { key: client.key, body: {} });
        expect(rotated, rotated.text).toMatchObject({ status: 200, body: { id, description: "renamed", enabled: false } });
        expect(rotated.body.secret).toMatch(SECRET);
      });
      await vi.waitFor(
        async () => {
          const read = await api.request("GET", `/v1/webhook-endpoints/${id}`, { key: client.key });
          expect(read).toMatchObject({ status: 200, body: { description: "renamed", enabled: false } });
        },
        { timeout: 10_000 },
      );
    }, 60_000);
  });
}
