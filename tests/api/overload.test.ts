import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type Service, startService } from "../../src/service.ts";
import { openTestDatabase, type TestDatabase, type TestDatabaseTarget, testDatabaseTargets } from "../support/database.ts";
import { capturedLogs, TEST_ADMIN_KEY, testConfig } from "../support/service.ts";

interface StalledService {
  service: Service;
  logs: () => string;
  /** Stalls the database until the returned function is called. */
  stall(): Promise<() => Promise<void>>;
}

/**
 * The service on a fresh database that the test can stall. PostgreSQL: the service opens its own
 * pool from the configuration (so its timeouts apply) and the test locks the event log from a
 * connection of its own. PGlite serves one connection: the test holds a transaction open on it.
 */
async function startStallable(target: TestDatabaseTarget, database: TestDatabase, environment: Record<string, string>): Promise<StalledService> {
  const { lines, sink } = capturedLogs();
  const config = testConfig(database.url, environment);
  const logger = createLogger("info", sink);
  if (target === "postgres") {
    return {
      service: await startService(config, logger),
      logs: () => lines.join(""),
      async stall() {
        const blocker = new pg.Client({ connectionString: database.url });
        await blocker.connect();
        await blocker.query("begin");
        await blocker.query("lock table events in access exclusive mode");
        return async () => {
          await blocker.query("commit");
          await blocker.end();
        };
      },
    };
  }
  return {
    service: await startService(config, logger, { ...database, close: async () => {} }),
    logs: () => lines.join(""),
    async stall() {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let began = () => {};
      const begun = new Promise<void>((resolve) => (began = resolve));
      const transaction = database.db.transaction().execute(async () => {
        began();
        await held;
      });
      await begun;
      return async () => {
        release();
        await transaction;
      };
    },
  };
}

async function createClient(service: Service, name: string) {
  const response = await fetch(`${service.url}/v1/clients`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ name }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

type Answer = Awaited<ReturnType<typeof createClient>>;

function expectShed(answer: Answer) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get("content-type")).toContain("application/problem+json");
  expect(answer.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  expect(answer.body).toMatchObject({ status: 503, code: "service_unavailable" });
}

const pgliteSkip = "PGlite has no lock timeout to test: the test holds its only connection";
if (testDatabaseTargets().includes("pglite")) console.warn(`SKIPPED the lock-timeout test on pglite: ${pgliteSkip}`);

for (const target of testDatabaseTargets()) {
  describe(`overload on ${target}`, { timeout: 240_000 }, () => {
    let database: TestDatabase | undefined;
    let running: StalledService | undefined;
    afterEach(async () => {
      await running?.service.stop();
      await database?.close();
      running = undefined;
      database = undefined;
    });

    it("sheds requests beyond the in-flight limit at once with 503 and retry-after while the database stalls, and serves again after", async () => {
      database = await openTestDatabase(target);
      running = await startStallable(target, database, { MAX_IN_FLIGHT_REQUESTS: "4", DATABASE_LOCK_TIMEOUT_MS: "30000" });
      const { service, stall } = running;
      const release = await stall();
      let heldAnswered = 0;
      let held: Promise<Answer[]>;
      try {
        held = Promise.all(
          Array.from({ length: 4 }, (_, i) => createClient(service, `Held ${i}`).finally(() => (heldAnswered += 1))),
        );
        await sleep(300);
        const shed = await Promise.all(Array.from({ length: 3 }, (_, i) => createClient(service, `Shed ${i}`)));
        for (const answer of shed) expectShed(answer);
        // Shed at admission, while the admitted ones still wait for the database.
        expect(heldAnswered).toBe(0);
      } finally {
        await release();
      }
      for (const answer of await held) expect(answer.status).toBe(201);
      expect((await createClient(service, "After")).status).toBe(201);
      expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
    });

    it.skipIf(target === "pglite")("answers 503 with retry-after, within its lock timeout, a request the stalled database cannot serve", async () => {
      database = await openTestDatabase(target);
      running = await startStallable(target, database, { DATABASE_LOCK_TIMEOUT_MS: "300" });
      const { service, stall } = running;
      const release = await stall();
      try {
        const answered = await Promise.race([createClient(service, "Stalled"), sleep(10_000).then(() => "no answer" as const)]);
        if (answered === "no answer") throw new Error("no answer within 10 s while the database stalled");
        expectShed(answered);
      } finally {
        await release();
      }
      expect((await createClient(service, "After")).status).toBe(201);
      expect(running.logs()).not.toContain('"level":60');
    });
  });
}
