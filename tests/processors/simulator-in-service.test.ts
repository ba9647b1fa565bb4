import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { openTestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { type ApiResponse, capturedLogs, TEST_ADMIN_KEY, testConfig } from "../support/service.ts";

/** `npm start` runs the simulator on its DATA_DIR: a restart forgets nothing the processor answered. */

for (const target of testDatabaseTargets()) {
  describe(`the built-in simulator across a service restart (${target})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it("captures an authorization, and resolves a pending sale, made before the restart", async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-simulator-"));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      // PGlite keeps its files in DATA_DIR; PostgreSQL gets a database of its own.
      const database = target === "postgres" ? await openTestDatabase("postgres") : undefined;
      if (database) cleanups.push(() => database.close());
      // The first instance leaves the pending sale alone (its resolver looks once, at start); the second resolves it.
      const start = async (resolverIntervalMs: number) => {
        const config = testConfig(database?.url, {
          DATA_DIR: dataDir,
          // Generous: on a busy machine an approval must not time out; the 0408 card holds for 30 s.
          PROCESSOR_TIMEOUT_MS: "3000",
          PENDING_RESOLVER_INTERVAL_MS: String(resolverIntervalMs),
        });
        const service = await startService(config, createLogger("info", capturedLogs().sink));
        cleanups.push(() => service.stop());
        return service;
      };
      const call = async (service: Service, method: string, route: string, key: string, body?: unknown) => {
        const response = await fetch(`${service.url}${route}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as ApiResponse["body"] };
      };

      const first = await start(3_600_000);
      const client = await call(first, "POST", "/v1/clients", TEST_ADMIN_KEY, { name: "Acme" });
      const { key } = (await call(first, "POST", `/v1/clients/${client.body.id}/api-keys`, TEST_ADMIN_KEY, {})).body;
      const configuration = { ...validBodies.processor_a, clientId: client.body.id };
      expect((await call(first, "POST", "/v1/host-configurations/processor_a", TEST_ADMIN_KEY, configuration)).status).toBe(201);
      const payment = { processor: "processor_a", currency: "USD", userId: "user_1", amount: 1000 };
      const authorization = await call(first, "POST", "/v1/transactions/authorization", key, { ...payment, card: approvedCard });
      expect(authorization.status).toBe(201);
      const timeoutCard = { ...approvedCard, number: "4000000000000408" };
      const sale = await call(first, "POST", "/v1/transactions/sale", key, { ...payment, card: timeoutCard });
      expect(sale.status).toBe(504);
      await cleanups.pop()!();
      expect(await readdir(path.join(dataDir, "simulator"))).toEqual(["transactions.jsonl"]);

      const second = await start(200);
      const capture = await call(second, "POST", "/v1/transactions/capture", key, {
        transactionId: authorization.body.id,
        amount: 600,
      });
      expect(capture).toMatchObject({ status: 201, body: { status: "approved", amount: 600 } });
      await vi.waitFor(
        async () => {
          const { body } = await call(second, "GET", `/v1/transactions/${sale.body.transaction.id}`, key);
          expect(body.status).toBe("approved");
        },
        { timeout: 15_000, interval: 200 },
      );
    }, 120_000);
  });
}
