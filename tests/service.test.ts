import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { type Service, startService } from "../src/service.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "./support/database.ts";
import { startTestService, type TestService } from "./support/service.ts";

for (const target of testDatabaseTargets()) {
  describe(`the service on ${target}`, () => {
    let database: TestDatabase | undefined;
    let service: Service;

    beforeAll(async () => {
      if (target === "postgres") database = await openTestDatabase("postgres");
      const config = loadConfig({ PORT: "0", DATA_DIR: "memory://", DATABASE_URL: database?.url });
      service = await startService(config, createLogger("silent"));
    });
    afterAll(async () => {
      await service.stop();
      await database?.close();
    });

    it("answers liveness and, once its stores answer, readiness", async () => {
      const live = await fetch(`${service.url}/health/live`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${service.url}/health/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready", simulatedProcessors: ["processor_a", "processor_b", "processor_c", "processor_d"] });
    });
  });

  describe(`readiness on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api?.stop());

    it("fails while a read model cannot be read, and recovers when it can", async () => {
      const rename = (from: string, to: string) =>
        sql`alter table ${sql.table(from)} rename to ${sql.table(to)}`.execute(api.database.db);
      await rename("host_configurations", "host_configurations_away");
      try {
        const broken = await api.request("GET", "/health/ready", { key: null });
        expect(broken.status).toBe(503);
      } finally {
        await rename("host_configurations_away", "host_configurations");
      }
      expect((await api.request("GET", "/health/ready", { key: null })).status).toBe(200);
    });
  });
}

describe("configuration", () => {
  it("rejects a malformed value with the variable named", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ EVENTSTORE_URL: "http://x" })).toThrow(/EVENTSTORE_URL/);
  });

  it("defaults to the embedded database and the PostgreSQL event store", () => {
    expect(loadConfig({})).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      databaseUrl: undefined,
      dataDir: "./data",
      eventStoreUrl: undefined,
    });
  });

  it("bounds every wait by default, and refuses a connection timeout that would cut off a payment", () => {
    expect(loadConfig({})).toMatchObject({
      databaseTimeouts: { connectMs: 5_000, statementMs: 15_000, lockMs: 5_000, idleInTransactionMs: 60_000 },
      requestTimeoutMs: 30_000,
      connectionTimeoutMs: 60_000,
      maxInFlightRequests: 512,
      maxEventLoopDelayMs: 2_000,
    });
    expect(() => loadConfig({ PROCESSOR_TIMEOUT_MS: "40000" })).toThrow(/CONNECTION_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_LOCK_TIMEOUT_MS: "0" })).toThrow(/DATABASE_LOCK_TIMEOUT_MS/);
  });
});
