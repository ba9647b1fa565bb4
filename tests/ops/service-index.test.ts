import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { startTestService, type TestService } from "../support/service.ts";

interface Index {
  name: string;
  links: Record<string, { href: string; title: string }>;
}

for (const target of testDatabaseTargets()) {
  describe(`the indexes at / and /v1 on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api?.stop());

    /** What each link of an index answers, followed as the admin. */
    async function statusesOf({ links }: Index) {
      const answers = await Promise.all(Object.entries(links).map(async ([name, { href }]) => [name, (await api.request("GET", href)).status]));
      return Object.fromEntries(answers);
    }

    it("GET / links the API, its reference, health, metrics, the console and the checkpoint keys, without a key", async () => {
      const index = await api.request("GET", "/", { key: null });
      expect(index.status).toBe(200);
      const { links } = index.body as Index;
      expect(Object.values(links).map((link) => link.href).sort()).toEqual(
        ["/v1", "/health/live", "/health/ready", "/metrics", "/docs", "/openapi.json", "/console", "/audit/checkpoint-keys"].sort(),
      );
      for (const link of Object.values(links)) expect(link.title, link.href).not.toBe("");
      // The console answers 503 until it is built (npm run build): there all the same.
      expect(await statusesOf(index.body)).toEqual({
        api: 200,
        docs: 200,
        openapi: 200,
        live: 200,
        ready: 200,
        metrics: 200,
        console: expect.toBeOneOf([200, 503]),
        checkpointKeys: 200,
      });
    });

    it("GET /v1 is an index of the API, without a key, whose every link answers", async () => {
      const index = await api.request("GET", "/v1", { key: null });
      expect(index.status).toBe(200);
      const { links } = index.body as Index;
      expect(links).toMatchObject({ service: { href: "/" }, docs: { href: "/docs" }, openapi: { href: "/openapi.json" }, me: { href: "/v1/me" } });
      const statuses = await statusesOf(index.body);
      expect(Object.entries(statuses).filter(([, status]) => status !== 200)).toEqual([]);
    });

    it("documents both in the OpenAPI document with operationIds, needing no key", async () => {
      const { body: document } = await api.request("GET", "/openapi.json", { key: null });
      expect(document.paths["/"].get).toMatchObject({ operationId: "getServiceIndex", tags: ["service"], security: [] });
      expect(document.paths["/v1"].get).toMatchObject({ operationId: "getApiIndex", tags: ["service"], security: [] });
      expect(document.paths["/"].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ServiceIndex" });
    });
  });
}
