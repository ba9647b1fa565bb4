import { once } from "node:events";
import { createServer } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseConnection } from "../src/db/connection.ts";
import { paymentStreamId } from "../src/domain/payments/events.ts";
import { createLogger } from "../src/logger.ts";
import { startSimulator } from "../src/processors/simulator/server.ts";
import { startService } from "../src/service.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "./support/database.ts";
import { validBodies } from "./support/host-configurations.ts";
import { capturedLogs, everyProcessorAt, TEST_ADMIN_KEY, testConfig } from "./support/service.ts";

const SALES = 8;
const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };

/**
 * The test's database as the service sees it: closing it makes every later query fail, as a
 * closed pool does, while the test keeps its own connection to look at what was written.
 */
function closable(database: TestDatabase): DatabaseConnection {
  let closed = false;
  const guard: KyselyPlugin = {
    transformQuery(args) {
      if (closed) throw new Error("query after the database was closed");
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: database.db.withPlugin(guard), kind: database.kind, close: async () => void (closed = true) };
}

/** A processor in front of the simulator that holds every call until released. */
async function startHoldingProcessor() {
  const simulator = await startSimulator();
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const server = createServer(async (request, response) => {
    const body = Buffer.concat(await request.toArray());
    held += 1;
    await released;
    const answer = await fetch(`${simulator.url}${request.url}`, {
      method: request.method,
      headers: { "content-type": request.headers["content-type"] ?? "application/json" },
      body: body.length > 0 ? body : undefined,
    });
    response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the holding processor is not on TCP");
  return {
    url: `http://127.0.0.1:${address.port}`,
    held: () => held,
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await simulator.close();
    },
  };
}

async function post(url: string, key: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

for (const target of testDatabaseTargets()) {
  describe(`stopping the service on ${target}`, () => {
    let database: TestDatabase;
    let processor: Awaited<ReturnType<typeof startHoldingProcessor>>;
    beforeAll(async () => {
      database = await openTestDatabase(target);
      processor = await startHoldingProcessor();
    });
    afterAll(async () => {
      await processor.close();
      await database.close();
    });

    it("answers every request it has taken, then closes the database", async () => {
      const { lines, sink } = capturedLogs();
      const config = testConfig(database.url, everyProcessorAt(processor.url));
      const service = await startService(config, createLogger("info", sink), closable(database));
      const client = await post(`${service.url}/v1/clients`, TEST_ADMIN_KEY, { name: "Acme" });
      const clientId = String(client.body.id);
      const key = String((await post(`${service.url}/v1/clients/${clientId}/api-keys`, TEST_ADMIN_KEY, {})).body.key);
      await post(`${service.url}/v1/host-configurations/processor_a`, TEST_ADMIN_KEY, { ...validBodies.processor_a, clientId });

      const sale = (userId: string, idempotencyKey: string, signal?: AbortSignal) =>
        post(
          `${service.url}/v1/transactions/sale`,
          key,
          { processor: "processor_a", amount: 1099, currency: "USD", userId, card },
          { "idempotency-key": idempotencyKey },
          signal,
        );
      const sales = Array.from({ length: SALES }, (_, i) => sale("user_42", `shutdown-${i}`));
      // One more whose client gives up while the processor holds it: the server keeps running it.
      const givingUp = new AbortController();
      const abandoned = sale("user_gone", "shutdown-abandoned", givingUp.signal);
      await until(() => processor.held() === SALES + 1, "every sale waits for the processor");
      givingUp.abort();
      await expect(abandoned).rejects.toThrow();

      let stopped = false;
      const stopping = service.stop().then(() => (stopped = true));
      await sleep(300);
      expect(stopped).toBe(false);
      processor.release();
      // Promptly, not after the keep-alive timeout of the connections the answers went out on.
      await Promise.race([stopping, sleep(10_000)]);
      expect(stopped).toBe(true);

      const answers = await Promise.all(sales);
      expect(answers.map((answer) => answer.status)).toEqual(Array(SALES).fill(201));
      for (const { body } of answers) {
        expect(body.status).toBe("approved");
        const stored = await database.db
          .selectFrom("transactions")
          .select("status")
          .where("transaction_id", "=", String(body.id))
          .executeTakeFirst();
        expect(stored?.status).toBe("approved");
        const events = await database.db
          .selectFrom("events")
          .select("type")
          .where("stream_id", "=", paymentStreamId(String(body.id)))
          .orderBy("revision")
          .execute();
        expect(events.map((event) => event.type)).toEqual(["TransactionInitiated.v1", "TransactionApproved.v1"]);
      }
      const gone = await database.db
        .selectFrom("transactions")
        .select("status")
        .where("user_id", "=", "user_gone")
        .execute();
      expect(gone).toEqual([{ status: "approved" }]);
      // A key is answered by its record, or by its transaction's recorded outcome (which a retry answers).
      const unansweredKeys = await database.db
        .selectFrom("idempotency_records as record")
        .leftJoin("transactions as transaction", "transaction.transaction_id", "record.transaction_id")
        .select("record.idempotency_key")
        .where("record.status_code", "is", null)
        .where((where) => where.or([where("transaction.status", "is", null), where("transaction.status", "=", "pending")]))
        .execute();
      expect(unansweredKeys).toEqual([]);
      expect(lines.filter((line) => JSON.parse(line).level >= 40)).toEqual([]);
    });
  });
}
