import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../processors/free-port.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";


for (const target of testDatabaseTargets()) {
  describe(`the API while EventStoreDB cannot be reached, read models on ${target}`, () => {
    let api: TestService;

    beforeAll(async () => {
      api = await startTestService(target, { EVENTSTORE_URL: `esdb://127.0.0.1:${await freePort()}?tls=false` });
    });
    afterAll(async () => {
      await api.stop();
    });

    it("answers a command 503 service_unavailable with retry-after, never 500", async () => {
      const created = await api.request("POST", "/v1/clients", { body: { name: "Acme" } });
      expect(created.status).toBe(503);
      expect(created.headers.get("retry-after")).toBe("2");
      expect(created.body).toMatchObject({ code: "service_unavailable", detail: "The event store is unavailable; retry later." });
      expect(created.text).not.toMatch(/UNAVAILABLE|ECONNREFUSED|esdb:/);
    }, 30_000);
  });
}
