import { once } from "node:events";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";

/** A loopback port nothing listens on: every call there fails as a lost connection does (14 UNAVAILABLE). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

for (const target of testDatabaseTargets()) {
  describe(`the API while EventStoreDB cannot be reached, read models on ${target}`, () => {
    let api: TestService;

    beforeAll(async () => {
      api = await startTestService(target, { EVENTSTORE_URL: `esdb://127.0.0.1:${await closedPort()}?tls=false` });
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
