import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hostConfigurationsProjection } from "../../src/projections/host-configurations/host-configurations-projection.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";
import { whileProjectionStalled } from "../support/stalled-projection.ts";

for (const target of testDatabaseTargets()) {
  describe(`host configurations written while their projection is stalled, on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api.stop());

    it("are answered as written, and read so once the projection catches up", async () => {
      const client = await api.createClient("Stalled configurations");
      const body = { ...validBodies.processor_a, clientId: client.clientId, name: "Stalled store" };
      let id = "";
      await whileProjectionStalled(api.database.db, hostConfigurationsProjection.name, async () => {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", { body });
        expect(created).toMatchObject({ status: 201, body: { name: "Stalled store", version: 1, isDefault: true } });
        expect(created.headers.get("etag")).toBe('"1"');
        id = String(created.body.id);
      });
      // The update needs the configuration in the read model (to see it exists, and whose it is).
      await vi.waitFor(async () => expect((await api.request("GET", `/v1/host-configurations/processor_a/${id}`)).status).toBe(200), {
        timeout: 10_000,
      });
      await whileProjectionStalled(api.database.db, hostConfigurationsProjection.name, async () => {
        const replaced = await api.request("PUT", `/v1/host-configurations/processor_a/${id}`, {
          body: { ...body, name: "Renamed" },
          headers: { "if-match": '"1"' },
        });
        expect(replaced).toMatchObject({ status: 200, body: { id, name: "Renamed", version: 2, isDefault: true } });
        expect(replaced.headers.get("etag")).toBe('"2"');
      });
      await vi.waitFor(
        async () => {
          const read = await api.request("GET", `/v1/host-configurations/processor_a/${id}`);
          expect(read).toMatchObject({ status: 200, body: { name: "Renamed", version: 2, isDefault: true } });
        },
        { timeout: 10_000 },
      );
    }, 60_000);
  });
}
