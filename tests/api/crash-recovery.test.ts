import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { openTestDatabase, type TestDatabase } from "../support/database.ts";
import { testEnvironment } from "../support/environment.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ServiceProcess, startServiceProcess, stopProcess } from "../support/process.ts";
import { TEST_ADMIN_KEY, testSecrets } from "../support/service.ts";

// Two processes on one database, one killed outright: that needs a server, not PGlite.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set";
if (skipReason) console.warn(`SKIPPED crash between intent and outcome test: ${skipReason}`);

describe.skipIf(skipReason)("a crash between a transaction's intent and its outcome", () => {
  let database: TestDatabase;
  let simulator: Simulator;
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    database = await openTestDatabase("postgres");
    // Outside the service's process, like a real processor: it survives the crash.
    simulator = await startSimulator({ timeoutCardDelayMs: 60_000 });
  });
  afterAll(async () => {
    if (service) await stopProcess(service.child, "SIGKILL");
    await simulator.close();
    await database.close();
  });

  const environment = (processorTimeoutMs: number) => ({
    DATABASE_URL: database.url!,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    PROCESSOR_A_URL: simulator.baseUrls.processor_a,
    PROCESSOR_B_URL: simulator.baseUrls.processor_b,
    PROCESSOR_C_URL: simulator.baseUrls.processor_c,
    PROCESSOR_D_URL: simulator.baseUrls.processor_d,
    PROCESSOR_TIMEOUT_MS: String(processorTimeoutMs),
    PENDING_RESOLVER_INTERVAL_MS: "200",
    // A dead request's claim on its Idempotency-Key expires after this.
    IDEMPOTENCY_IN_PROGRESS_TIMEOUT_MS: "1000",
    ...testSecrets,
  });

  const call = async (url: string, method: string, path: string, key: string, body?: unknown, idempotencyKey?: string) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { "content-type": "application/json" } : {}),
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** A client with a processor_a configuration; its API key. */
  async function clientOn(url: string): Promise<string> {
    const client = await call(url, "POST", "/v1/clients", TEST_ADMIN_KEY, { name: "Acme" });
    const key = await call(url, "POST", `/v1/clients/${client.body.id}/api-keys`, TEST_ADMIN_KEY, {});
    const config = await call(url, "POST", "/v1/host-configurations/processor_a", TEST_ADMIN_KEY, {
      ...validBodies.processor_a,
      clientId: client.body.id,
    });
    expect(config.status).toBe(201);
    return String(key.body.key);
  }
  const saleBody = (number: string) => ({
    processor: "processor_a",
    amount: 4200,
    currency: "USD",
    userId: "user_1",
    card: { number, expMonth: 12, expYear: 2030, cvc: "123" },
  });
  const initiated = async () =>
    (
      await sql<{ id: string }>`
        select data->>'transactionId' as id from events where type = 'TransactionInitiated.v1'`.execute(database.db)
    ).rows.map((row) => row.id);

  it("leaves a pending transaction that the restarted service resolves, and the key's retry answers it", async () => {
    service = await startServiceProcess(environment(30_000));
    const apiKey = await clientOn(service.url);
    const idempotencyKey = `crash-${Math.random()}`;

    // The processor holds this card's answer: kill the service while it waits.
    const sale = call(service.url, "POST", "/v1/transactions/sale", apiKey, saleBody("4000000000000408"), idempotencyKey).catch(
      () => undefined,
    );
    // Kill only once the processor holds the request: killed earlier, the processor never saw it,
    // and the resolver rightly records it as failed instead.
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ id: string }>`
          select data->>'transactionId' as id from events where type = 'TransactionInitiated.v1'`.execute(database.db);
        expect(rows).toHaveLength(1);
        expect(simulator.received(rows[0]!.id)).toBeDefined();
      },
      { timeout: 15_000, interval: 50 },
    );
    await stopProcess(service.child, "SIGKILL");
    await sale;
    const outcomes = await sql<{ count: string }>`
      select count(*)::text as count from events where type like 'Transaction%' and type <> 'TransactionInitiated.v1'`.execute(
      database.db,
    );
    expect(outcomes.rows[0]?.count).toBe("0");

    service = await startServiceProcess(environment(300));
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ status: string }>`select status from transactions`.execute(database.db);
        expect(rows).toEqual([{ status: "approved" }]);
      },
      { timeout: 20_000, interval: 100 },
    );
    // The key belongs to the transaction: once its dead claim expires, a retry answers it, and charges nothing again.
    const [saleId] = await initiated();
    await vi.waitFor(
      async () => {
        const retried = await call(service!.url, "POST", "/v1/transactions/sale", apiKey, saleBody("4000000000000408"), idempotencyKey);
        expect(retried).toMatchObject({ status: 201, body: { id: saleId } });
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(await initiated()).toHaveLength(1);
    expect(await stopProcess(service.child)).toBe(0);
    service = undefined;
  }, 90_000);

  it("releases the key of a request that died before its intent was recorded, after a bounded time", async () => {
    const before = await initiated();
    service = await startServiceProcess(environment(5_000));
    const apiKey = await clientOn(service.url);
    const idempotencyKey = `died-${Math.random()}`;
    // Appends wait behind this lock: the request claims its key, then its intent never lands.
    const blocker = await database.db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      await sql`lock table events in exclusive mode`.execute(connection);
      const sale = call(service!.url, "POST", "/v1/transactions/sale", apiKey, saleBody("4242424242424242"), idempotencyKey).catch(
        () => undefined,
      );
      await vi.waitFor(
        async () => {
          const { rows } = await sql<{ count: string }>`
            select count(*)::text as count from idempotency_records where idempotency_key = ${idempotencyKey}`.execute(connection);
          expect(rows[0]?.count).toBe("1");
        },
        { timeout: 15_000, interval: 50 },
      );
      await stopProcess(service!.child, "SIGKILL");
      await sale;
      // The dead process's append still waits on the server; a server ends a dead client's
      // session, so end it here, or the lock's release would let that append land after all.
      await sql`
        select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(connection);
      await sql`rollback`.execute(connection);
      return "released";
    });
    expect(blocker).toBe("released");
    expect(await initiated()).toEqual(before);

    service = await startServiceProcess(environment(5_000));
    await vi.waitFor(
      async () => {
        const retried = await call(service!.url, "POST", "/v1/transactions/sale", apiKey, saleBody("4242424242424242"), idempotencyKey);
        expect(retried.status).toBe(201);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(await initiated()).toHaveLength(before.length + 1);
    expect(await stopProcess(service.child)).toBe(0);
    service = undefined;
  }, 90_000);
});
