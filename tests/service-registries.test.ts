import { afterEach, describe, expect, it, vi } from "vitest";
import { openEventStore } from "../src/eventstore/open.ts";
import type { NewEvent } from "../src/eventstore/port.ts";
import { testDatabaseTargets } from "./support/database.ts";
import { validBodies } from "./support/host-configurations.ts";
import { approvedCard } from "./support/payments.ts";
import { startTestService, type TestService } from "./support/service.ts";

const eventually = { timeout: 15_000, interval: 50 };

/** Every event of `from`'s log appended to `to`'s, stream by stream in order: a copy of the ledger. */
async function copyLog(from: TestService, to: TestService): Promise<void> {
  const source = openEventStore(undefined, from.database.db);
  const target = openEventStore(undefined, to.database.db);
  const streams = new Map<string, NewEvent[]>();
  let read = await source.readAll({ batchSize: 500 });
  while (read.events.length > 0) {
    for (const { streamId, id, type, data, metadata } of read.events) {
      streams.set(streamId, [...(streams.get(streamId) ?? []), { id, type, data, metadata }]);
    }
    read = await source.readAll({ after: read.checkpoint, batchSize: 500 });
  }
  for (const [streamId, events] of streams) await target.append(streamId, events, "no_stream");
}

for (const target of testDatabaseTargets()) {
  describe(`two services in one process (${target})`, { timeout: 60_000 }, () => {
    const started: TestService[] = [];
    afterEach(async () => {
      await Promise.all(started.splice(0).map((service) => service.stop()));
    });

    it("never answer from each other's registries: one host configuration id and version, two sets of credentials", async () => {
      const first = await startTestService(target);
      const second = await startTestService(target);
      started.push(first, second);
      // The second database is a copy of the first: the same client, key and host configuration id.
      const client = await first.createClient("Copied");
      const configuration = { ...validBodies.processor_c, clientId: client.clientId };
      const created = await first.request("POST", "/v1/host-configurations/processor_c", { body: configuration });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      await copyLog(first, second);
      // Each projection catches up with the copy on its own: the configuration, and the client's key.
    await vi.waitFor(async () => expect((await second.request("GET", `/v1/host-configurations/processor_c/${id}`)).status).toBe(200), eventually);
    await vi.waitFor(async () => expect((await second.request("GET", "/v1/transactions", { key: client.key })).status).toBe(200), eventually);

      // Each then replaces the credentials its own way: version 2 on both, the simulator refusing the second's.
      const replace = (service: TestService, password: string) =>
        service.request("PUT", `/v1/host-configurations/processor_c/${id}`, {
          body: { ...configuration, credentials: { username: "acme", password } },
          headers: { "if-match": '"1"' },
        });
      const replacedFirst = await replace(first, "s3cret pass!");
      expect(replacedFirst.headers.get("etag"), replacedFirst.text).toBe('"2"');
      expect((await replace(second, "invalid-password")).headers.get("etag")).toBe('"2"');

      const sale = (service: TestService) =>
        service.request("POST", "/v1/transactions/sale", {
          key: client.key,
          body: { processor: "processor_c", hostConfigurationId: id, amount: 1000, currency: "USD", userId: "user_1", card: approvedCard },
        });
      const onFirst = await sale(first);
      expect(onFirst.status, onFirst.text).toBe(201);
      const onSecond = await sale(second);
      expect([onSecond.status, onSecond.body.code], onSecond.text).toEqual([502, "processor_authentication_failed"]);
      // And the other way round, now that the second service has loaded its own version 2.
      expect((await sale(first)).status).toBe(201);
    });
  });
}
