import { generateKeyPairSync } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CHECKPOINT_STREAM, checkpointOf } from "../../src/audit/checkpoints.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { recordPayments } from "../support/payments.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

const signingKey = () => generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

for (const target of testDatabaseTargets()) {
  describe(`the checkpoint job on its own timer on ${target}`, () => {
    let api: TestService;

    beforeAll(async () => {
      api = await startTestService(target, { CHECKPOINT_INTERVAL_SECONDS: "1", CHECKPOINT_SIGNING_KEY: signingKey() });
    });
    afterAll(() => api.stop());

    it("records a checkpoint covering a sale's head after the sale, with nothing calling it", async () => {
      const store = new PostgresEventStore(api.database.db);
      const sale = paymentStreamId((await recordPayments(api)).sale);
      const [head] = await store.readStream(sale, { direction: "backwards", maxCount: 1 });
      const covered = { streamId: sale, revision: Number(head!.revision), hash: (head!.metadata.chain as Json).hash };
      const coveringCheckpoints = async () =>
        (await store.readStream(CHECKPOINT_STREAM))
          .map(checkpointOf)
          .filter((checkpoint) => checkpoint.heads.some((recorded) => recorded.streamId === covered.streamId && recorded.revision === covered.revision));
      // Bounded by the test's timeout: the job looks once a second.
      while ((await coveringCheckpoints()).length === 0) await sleep(100);
      const [checkpoint] = await coveringCheckpoints();
      expect(checkpoint!.heads).toContainEqual(covered);
      // Logged once the checkpoint is recorded, so it may follow what the read above found.
      await vi.waitFor(() => expect(api.logs()).toContain("recorded chain checkpoints"), { timeout: 10_000, interval: 50 });
    }, 30_000);
  });
}
