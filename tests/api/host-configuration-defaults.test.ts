import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRegistries } from "../../src/commands/context.ts";
import { hostConfigurations } from "../../src/commands/streams.ts";
import { clientStreamId } from "../../src/domain/clients/decider.ts";
import { hostConfigurationCreateSchema } from "../../src/domain/host-configurations/schemas.ts";
import { openEventStore } from "../../src/eventstore/open.ts";
import { newId } from "../../src/ids.ts";
import { hostConfigurationsProjection } from "../../src/projections/host-configurations/host-configurations-projection.ts";
import { rebuildProjection } from "../../src/projections/rebuild.ts";
import { verifyReadModel } from "../../src/projections/verify-read-model.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

type Client = Awaited<ReturnType<TestService["createClient"]>>;

const eventually = { timeout: 15_000, interval: 50 };

for (const target of testDatabaseTargets()) {
  describe(`default host configurations on ${target}`, () => {
    let api: TestService;

    beforeAll(async () => {
      // Sales below must not fail because the processor was slow on a busy machine.
      api = await startTestService(target, { PROCESSOR_TIMEOUT_MS: "10000" });
    });
    afterAll(() => api.stop());

    const store = () => openEventStore(undefined, api.database.db);

    const create = async (client: Client, overrides: Record<string, Json> = {}): Promise<Json> => {
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: client.clientId, ...overrides },
      });
      expect(created.status, created.text).toBe(201);
      return created.body;
    };
    const read = async (id: string): Promise<Json> => {
      const response = await api.request("GET", `/v1/host-configurations/processor_a/${id}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    const chooseDefault = (id: string, options: { key?: string; processor?: string } = {}) =>
      api.request("PUT", `/v1/host-configurations/${options.processor ?? "processor_a"}/${id}/default`, { key: options.key });
    const sale = (client: Client) =>
      api.request("POST", "/v1/transactions/sale", {
        key: client.key,
        body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u1", card: approvedCard },
      });
    /** The processor_a configuration a sale that names none runs on. */
    const saleRunsOn = async (client: Client): Promise<string> => {
      const response = await sale(client);
      expect(response.status, response.text).toBe(201);
      return response.body.hostConfigurationId;
    };
    const defaultsOf = async (client: Client): Promise<Record<string, boolean>> => {
      const listed = await api.request("GET", `/v1/host-configurations/processor_a?clientId=${client.clientId}&limit=100`);
      expect(listed.status).toBe(200);
      return Object.fromEntries(listed.body.data.map((view: Json) => [view.id, view.isDefault]));
    };
    const defaultChoicesOf = async (client: Client) =>
      (await store().readStream(clientStreamId(client.clientId))).filter((event) => event.type === "DefaultHostConfigurationChosen.v1");

    it("makes the first configuration the default; a second enabled one is not, and sales keep running on the first", async () => {
      const client = await api.createClient("First");
      const first = await create(client);
      expect(first.isDefault).toBe(true);
      const second = await create(client, { name: "Second store" });
      expect(second.isDefault).toBe(false);

      expect(await saleRunsOn(client)).toBe(first.id);
      expect((await read(first.id)).isDefault).toBe(true);
      expect((await read(second.id)).isDefault).toBe(false);
      const ownList = await api.request("GET", "/v1/host-configurations/processor_a", { key: client.key });
      expect(Object.fromEntries(ownList.body.data.map((view: Json) => [view.id, view.isDefault]))).toEqual({
        [first.id]: true,
        [second.id]: false,
      });
      // Versions are the configuration's own history; the default is its client's choice.
      const history = await api.request("GET", `/v1/host-configurations/processor_a/${first.id}/versions`);
      expect(history.body.data[0]).not.toHaveProperty("isDefault");
    });

    it("moves the default with PUT .../default, and the next sale runs on the new one; choosing it again changes nothing", async () => {
      const client = await api.createClient("Moving");
      const first = await create(client);
      const second = await create(client, { name: "Second store" });

      const moved = await chooseDefault(second.id);
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ id: second.id, isDefault: true, version: 1 });
      expect(moved.headers.get("etag")).toBe('"1"');
      expect((await read(first.id)).isDefault).toBe(false);
      expect((await read(second.id)).isDefault).toBe(true);
      expect(await defaultsOf(client)).toEqual({ [first.id]: false, [second.id]: true });
      expect(await saleRunsOn(client)).toBe(second.id);

      const choices = (await defaultChoicesOf(client)).length;
      // A client that always sends the JSON content type, with no body.
      const again = await api.request("PUT", `/v1/host-configurations/processor_a/${second.id}/default`, {
        headers: { "content-type": "application/json" },
      });
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ id: second.id, isDefault: true });
      expect(await defaultChoicesOf(client)).toHaveLength(choices);

      const back = await chooseDefault(first.id);
      expect(back.body).toMatchObject({ id: first.id, isDefault: true });
      expect(await defaultsOf(client)).toEqual({ [first.id]: true, [second.id]: false });
      expect(await saleRunsOn(client)).toBe(first.id);
    });

    it("refuses a client key (403), another processor's or an unknown id (404) and a disabled configuration (422)", async () => {
      const client = await api.createClient("Refused");
      const first = await create(client);
      const disabled = await create(client, { enabled: false });
      expect(disabled.isDefault).toBe(false);

      const byClient = await chooseDefault(first.id, { key: client.key });
      expect(byClient.status).toBe(403);
      expect(byClient.body.code).toBe("forbidden");
      const otherProcessor = await chooseDefault(first.id, { processor: "processor_b" });
      expect(otherProcessor.status).toBe(404);
      expect(otherProcessor.body.code).toBe("not_found");
      const unknown = await chooseDefault(newId());
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe("not_found");

      const refused = await chooseDefault(disabled.id);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe("host_configuration_disabled");
      expect(refused.body.detail).toContain("enable it first");
      expect(await defaultsOf(client)).toEqual({ [first.id]: true, [disabled.id]: false });
      expect(await saleRunsOn(client)).toBe(first.id);
    });

    it("answers sales 422 host_configuration_disabled while the default is disabled, even with another enabled", async () => {
      const client = await api.createClient("Disabled default");
      const first = await create(client);
      const second = await create(client, { name: "Second store" });
      const disabledFirst = await api.request("PUT", `/v1/host-configurations/processor_a/${first.id}`, {
        body: { ...validBodies.processor_a, clientId: client.clientId, enabled: false },
      });
      expect(disabledFirst.status).toBe(200);
      expect(disabledFirst.body).toMatchObject({ enabled: false, isDefault: true });

      const refused = await sale(client);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe("host_configuration_disabled");
      expect(refused.body.detail).toContain(first.id);
      expect(refused.body.detail).toContain("/default");

      expect((await chooseDefault(second.id)).status).toBe(200);
      expect(await saleRunsOn(client)).toBe(second.id);
    });

    it("leaves configurations made before defaults ambiguous (422 host_configuration_ambiguous) until an admin chooses one", async () => {
      const client = await api.createClient("Legacy");
      const { credentials: _none, ...configuration } = hostConfigurationCreateSchema("processor_a").parse({
        ...validBodies.processor_a,
        clientId: client.clientId,
      });
      // Two enabled configurations recorded as the service wrote them before defaults existed.
      const legacy = [newId(), newId()];
      for (const hostConfigurationId of legacy) {
        const created = await hostConfigurations.handle(
          { store: store(), metadata: {}, registries: createRegistries(store()) },
          hostConfigurationId,
          { type: "CreateHostConfiguration", hostConfigurationId, processor: "processor_a", configuration, credentials: null, now: new Date().toISOString() },
        );
        expect(created.ok).toBe(true);
      }
      await vi.waitFor(async () => expect(Object.keys(await defaultsOf(client))).toHaveLength(2), eventually);
      expect(await defaultsOf(client)).toEqual({ [legacy[0]!]: false, [legacy[1]!]: false });

      const ambiguous = await sale(client);
      expect(ambiguous.status).toBe(422);
      expect(ambiguous.body).toMatchObject({ code: "host_configuration_ambiguous", title: "Host configuration ambiguous" });
      expect(ambiguous.body.detail).toContain("2 enabled");
      expect(ambiguous.body.detail).toContain("hostConfigurationId");
      expect(ambiguous.body.detail).toContain("/default");

      // A new configuration does not settle what was ambiguous before it.
      const third = await create(client);
      expect(third.isDefault).toBe(false);
      const stillAmbiguous = await sale(client);
      expect(stillAmbiguous.body.code).toBe("host_configuration_ambiguous");
      expect(stillAmbiguous.body.detail).toContain("3 enabled");

      expect((await chooseDefault(legacy[1]!)).status).toBe(200);
      expect(await saleRunsOn(client)).toBe(legacy[1]);
    });

    it("of 8 configurations created at once for a new client, exactly one becomes the default, and sales run on it", async () => {
      const client = await api.createClient("Concurrent");
      const created = await Promise.all(Array.from({ length: 8 }, (_, index) => create(client, { name: `Store ${index}` })));
      const ids = created.map((view) => view.id);

      const defaults = await defaultsOf(client);
      expect(Object.keys(defaults).sort()).toEqual([...ids].sort());
      const chosen = Object.keys(defaults).filter((id) => defaults[id]);
      expect(chosen).toHaveLength(1);
      expect(await defaultChoicesOf(client)).toHaveLength(1);
      // A response said default exactly when the configuration is.
      expect(created.filter((view) => view.isDefault).map((view) => view.id)).toEqual(chosen);

      for (let index = 0; index < 3; index += 1) expect(await saleRunsOn(client)).toBe(chosen[0]);
    });

    it("keeps which configuration is the default through a rebuild of the projection", async () => {
      const client = await api.createClient("Rebuilt");
      const first = await create(client);
      const second = await create(client, { name: "Second store" });
      expect((await chooseDefault(second.id)).status).toBe(200);
      const before = await defaultsOf(client);
      expect(before).toEqual({ [first.id]: false, [second.id]: true });

      const replayed = await rebuildProjection({ db: api.database.db, store: store(), projection: hostConfigurationsProjection });
      expect(replayed).toBeGreaterThan(0);
      expect(await defaultsOf(client)).toEqual(before);
      expect(await saleRunsOn(client)).toBe(second.id);
      // What the live runner wrote is what a replay writes, every row and column.
      const verdict = await verifyReadModel({ db: api.database.db, store: store(), projection: hostConfigurationsProjection });
      expect(verdict).toMatchObject({ status: "compared", differences: [] });
    });
  });
}
