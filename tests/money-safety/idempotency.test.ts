import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryId, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { IdempotencyPurge } from "../../src/jobs/idempotency-purge.ts";
import { createLogger } from "../../src/logger.ts";
import { startSimulator, type Simulator } from "../../src/processors/simulator/server.ts";
import { startService } from "../../src/service.ts";
import { openTestDatabase, testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ProcessorRelay, startProcessorRelay } from "../support/processor-relay.ts";
import {
  type ApiResponse,
  apiRequest,
  capturedLogs,
  everyProcessorAt,
  startTestService,
  testConfig,
  type TestService,
} from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });

/**
 * Shows the service's statements to a test, as their operation trees in JSON (their SQL text and
 * values): `onQuery` when one is asked for, `onResult` with its rows before the service gets
 * them; a test holds a statement there, or fails it.
 */
class StatementHook implements KyselyPlugin {
  readonly #statements = new WeakMap<QueryId, string>();
  onQuery: ((statement: string) => void) | undefined;
  onResult: ((statement: string, rows: readonly unknown[]) => Promise<void>) | undefined;

  transformQuery({ node, queryId }: PluginTransformQueryArgs) {
    const statement = JSON.stringify(node);
    this.#statements.set(queryId, statement);
    this.onQuery?.(statement);
    return node;
  }

  async transformResult({ queryId, result }: PluginTransformResultArgs) {
    await this.onResult?.(this.#statements.get(queryId) ?? "", result.rows);
    return result;
  }
}

/** A moment a test waits for. */
function moment() {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  return { reach, reached };
}

for (const target of testDatabaseTargets()) {
  describe(`an Idempotency-Key belongs to its transaction, on ${target}`, () => {
    let simulator: Simulator;
    let relay: ProcessorRelay;
    let api: TestService;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;
    /** Set by a test: runs after the processor answered, before the service hears the answer. */
    let afterProcessorActs: (() => Promise<void>) | undefined;
    /** The resolver's inquiries (GETs) are answered once this settles: a test holds them back with it. */
    let inquiriesAnswered: Promise<void> = Promise.resolve();

    beforeAll(async () => {
      simulator = await startSimulator();
      relay = await startProcessorRelay(simulator.url, async ({ method }) => {
        if (method === "GET") return inquiriesAnswered;
        const fault = afterProcessorActs;
        afterProcessorActs = undefined;
        await fault?.();
      });
      api = await startTestService(target, everyProcessorAt(relay.url));
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status).toBe(201);
    });
    afterAll(async () => {
      await api?.stop();
      await relay?.close();
      await simulator?.close();
    });

    const sale = (idempotencyKey: string, number = "4242424242424242") =>
      api.request("POST", "/v1/transactions/sale", {
        key: acme.key,
        headers: { "idempotency-key": idempotencyKey },
        body: { processor: "processor_a", amount: 1500, currency: "USD", card: card(number), userId: "u1" },
      });
    const initiatedSales = async () => {
      const { rows } = await sql<{ id: string }>`
        select data->>'transactionId' as id from events
        where type = 'TransactionInitiated.v1' and data->>'type' = 'sale' and data->>'clientId' = ${acme.clientId}`.execute(
        api.database.db,
      );
      return rows.map((row) => row.id);
    };

    it("records an answered charge through a failing store, and a retry never charges again", async () => {
      const before = await initiatedSales();
      // The store fails once the processor has charged: the answer is a fact and must be recorded.
      afterProcessorActs = async () => {
        await sql`alter table events rename to events_unreachable`.execute(api.database.db);
        setTimeout(() => void sql`alter table events_unreachable rename to events`.execute(api.database.db), 1_000);
      };
      const key = `charge-${Math.random()}`;
      const first = await sale(key);
      expect(first.status).toBe(201);
      expect(first.body.status).toBe("approved");
      const retried = await sale(key);
      expect(retried.status).toBe(201);
      expect(retried.body.id).toBe(first.body.id);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect((await initiatedSales()).filter((id) => !before.includes(id))).toEqual([first.body.id]);
    });

    it("charges once per key when many keyed sales arrive at once, each twice, and answers each key's retry with its sale", async () => {
      const before = await initiatedSales();
      const keys = Array.from({ length: 30 }, (_, index) => `at-once-${index}-${Math.random()}`);
      // Sent together, their claims, bindings and answers share grouped statements (where requests overlap: PostgreSQL).
      const answers = await Promise.all([...keys, ...keys].map((key) => sale(key)));
      const executed = new Map<string, string>();
      keys.forEach((key, index) => {
        const pair = [answers[index]!, answers[index + keys.length]!];
        const first = pair.filter((answer) => answer.status === 201 && answer.headers.get("idempotent-replayed") === null);
        expect(first, `${key}: ${pair.map((answer) => `${answer.status} ${answer.text}`).join(" | ")}`).toHaveLength(1);
        executed.set(key, first[0]!.body.id);
        const other = pair.find((answer) => answer !== first[0])!;
        if (other.status === 201) expect(other.body.id).toBe(first[0]!.body.id);
        else expect(other.body.code).toBe("idempotency_request_in_progress");
      });
      const made = (await initiatedSales()).filter((id) => !before.includes(id));
      expect(made.sort()).toEqual([...executed.values()].sort());
      const records = await api.database.db
        .selectFrom("idempotency_records")
        .select(["idempotency_key", "transaction_id"])
        .where("idempotency_key", "in", keys)
        .execute();
      expect(records.map((record) => [record.idempotency_key, record.transaction_id]).sort()).toEqual(keys.map((key) => [key, executed.get(key)]).sort());
      const retries = await Promise.all(keys.map((key) => sale(key)));
      retries.forEach((retry, index) => {
        expect(retry.status).toBe(201);
        expect(retry.body.id).toBe(executed.get(keys[index]!));
        expect(retry.headers.get("idempotent-replayed")).toBe("true");
      });
    });

    it("answers a retry from the log once its sale has an outcome, and 409 while the sale's request still runs", async () => {
      const key = `in-flight-${Math.random()}`;
      let whileInFlight: ApiResponse | undefined;
      // The processor has approved; the first request has not recorded it yet.
      afterProcessorActs = async () => {
        whileInFlight = await sale(key);
      };
      const first = await sale(key);
      expect(first.status).toBe(201);
      expect(whileInFlight?.status).toBe(409);
      expect(whileInFlight?.body.code).toBe("idempotency_request_in_progress");
      // No answer is written for it: the sale's recorded outcome is the key's answer.
      const record = await api.database.db
        .selectFrom("idempotency_records")
        .select(["status_code", "transaction_id"])
        .where("idempotency_key", "=", key)
        .executeTakeFirstOrThrow();
      expect(record).toEqual({ status_code: null, transaction_id: first.body.id });
      const retried = await sale(key);
      expect(retried.status).toBe(201);
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect(retried.body).toEqual(first.body);
    });

    it("answers a retry with the transaction as it stands: pending first, approved once resolved", async () => {
      const key = `pending-${Math.random()}`;
      // Until the retry has answered, the processor's answers to inquiries do not reach the resolver.
      let answerInquiries = () => {};
      inquiriesAnswered = new Promise((resolve) => (answerInquiries = resolve));
      let first: ApiResponse;
      try {
        first = await sale(key, "4000000000000408");
        expect(first.status).toBe(504);
        expect(first.body.transaction.status).toBe("pending");
        const whilePending = await sale(key, "4000000000000408");
        expect(whilePending.status).toBe(504);
        expect(whilePending.body.code).toBe("processor_timeout");
        expect(whilePending.body.transaction.id).toBe(first.body.transaction.id);
      } finally {
        answerInquiries();
        inquiriesAnswered = Promise.resolve();
      }
      await vi.waitFor(
        async () => {
          const resolved = await sale(key, "4000000000000408");
          expect(resolved.status).toBe(201);
          expect(resolved.body).toMatchObject({ id: first.body.transaction.id, status: "approved" });
        },
        { timeout: 15_000, interval: 200 },
      );
    });

    it("forgets a key after the retention: the same key, even with another body, starts a new request", async () => {
      const key = `retained-${Math.random()}`;
      const first = await sale(key);
      expect(first.status).toBe(201);
      expect((await sale(key, "4000000000000002")).status).toBe(422);
      // The key's record as if made IDEMPOTENCY_RETENTION_HOURS (24) and a minute ago.
      await sql`
        update idempotency_records
        set created_at = created_at - interval '24 hours 1 minute', locked_until = locked_until - interval '24 hours 1 minute'
        where idempotency_key = ${key}`.execute(api.database.db);
      const renewed = await sale(key, "4000000000000002");
      expect(renewed.status, renewed.text).toBe(402);
      expect(renewed.body.transaction.id).not.toBe(first.body.id);
      const again = await sale(key, "4000000000000002");
      expect(again.status).toBe(402);
      expect(again.body.transaction.id).toBe(renewed.body.transaction.id);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    });

    it("keys the stored request hash: the card in a body cannot be tested against it", async () => {
      const key = `hash-${Math.random()}`;
      const body = { processor: "processor_a", amount: 1500, currency: "USD", card: card("4242424242424242"), userId: "u1" };
      expect((await sale(key)).status).toBe(201);
      const { rows } = await sql<{ request_hash: string }>`
        select request_hash from idempotency_records where idempotency_key = ${key}`.execute(api.database.db);
      const unkeyed = createHash("sha256").update(`POST /v1/transactions/sale\n${canonicalize(body)}`).digest("hex");
      expect(rows).toHaveLength(1);
      expect(rows[0]!.request_hash).not.toBe(unkeyed);
    });

    it("never stores a created API key, and a replay of its creation answers it null", async () => {
      const headers = { "idempotency-key": `api-key-${Math.random()}` };
      const created = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {}, headers });
      expect(created.status).toBe(201);
      expect(created.body.key).toMatch(/^ldgr_sk_/);
      expect(await everythingStored(api.database.db)).not.toContain(created.body.key);
      const replayed = await api.request("POST", `/v1/clients/${acme.clientId}/api-keys`, { body: {}, headers });
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("idempotent-replayed")).toBe("true");
      expect(replayed.body).toEqual({ ...created.body, key: null });
      expect((await api.request("GET", `/v1/clients/${acme.clientId}`, { key: created.body.key })).status).toBe(200);
    });
  });

  describe(`a duplicate racing its first request's failure, on ${target}`, () => {
    it("answers 409 when the first request's 5xx frees the key between the duplicate's claim and its look at the record", async () => {
      const database = await openTestDatabase(target);
      const hook = new StatementHook();
      const service = await startService(testConfig(database.url), createLogger("info", capturedLogs().sink), {
        ...database,
        db: database.db.withPlugin(hook),
        close: async () => {},
      });
      try {
        const { body: client } = await apiRequest(service.url, "POST", "/v1/clients", { body: { name: "Acme" } });
        // A POST that creates nothing, so its 5xx deletes its record (a creation's keeps its resource's id).
        const { body: endpoint } = await apiRequest(service.url, "POST", "/v1/webhook-endpoints", {
          body: { clientId: client.id, url: "https://93.184.216.34/hooks", events: ["*"], enabled: false },
        });
        const key = `released-${Math.random()}`;
        const rotate = () =>
          apiRequest(service.url, "POST", `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { body: {}, headers: { "idempotency-key": key } });
        // A statement counts as run once it is asked for on PGlite, which runs one at a time in the
        // order asked (a statement held in its result holds the only connection); once it has run
        // on PostgreSQL, which runs statements side by side.
        const asked = { running: moment(), duplicateClaim: moment(), release: moment() };
        const done = { duplicateClaim: moment(), release: moment() };
        const hasRun = (step: "duplicateClaim" | "release") =>
          target === "pglite" ? asked[step].reached.then(() => new Promise((resolve) => setImmediate(resolve))) : done[step].reached;
        const isClaim = (statement: string) => statement.includes(key) && statement.includes("insert into idempotency_records");
        const isRelease = (statement: string) => statement.includes(key) && statement.includes("DeleteQueryNode");
        let claims = 0;
        hook.onQuery = (statement) => {
          if (isClaim(statement) && ++claims === 2) asked.duplicateClaim.reach();
          if (isRelease(statement)) asked.release.reach();
        };
        let failed = false;
        hook.onResult = async (statement, rows) => {
          // The first request's first read of the endpoint's stream, once its key is claimed: it
          // fails (nothing is written yet) once the duplicate's claim has found the key taken.
          if (!failed && statement.includes(`webhook-endpoint-${endpoint.id}`)) {
            failed = true;
            asked.running.reach();
            await hasRun("duplicateClaim");
            throw new Error("the database went away");
          }
          // The duplicate's claim, refused: it looks at the record only once the first request's
          // 5xx has deleted it.
          if (isClaim(statement) && rows.length === 0) {
            done.duplicateClaim.reach();
            await hasRun("release");
          }
          if (isRelease(statement)) done.release.reach();
        };
        const first = rotate();
        await asked.running.reached;
        const duplicate = await rotate();
        expect((await first).status).toBe(500);
        expect(duplicate.status, duplicate.text).toBe(409);
        expect(duplicate.body.code).toBe("idempotency_request_in_progress");
        hook.onQuery = hook.onResult = undefined;
        // The key was freed: a retry runs the request.
        const retried = await rotate();
        expect(retried.status, retried.text).toBe(200);
        expect(retried.headers.get("idempotent-replayed")).toBeNull();
      } finally {
        await service.stop();
        await database.close();
      }
    }, 60_000);
  });

  describe(`the idempotency purge, on ${target}`, () => {
    it("deletes, in batches and under a lease, only records older than the retention whose claim no request holds", async () => {
      const database = await openTestDatabase(target);
      const { sink } = capturedLogs();
      const purge = (batchSize: number) =>
        new IdempotencyPurge({ db: database.db, logger: createLogger("info", sink), intervalMs: 60_000, retentionMs: 3_600_000, leaseMs: 60_000, batchSize });
      try {
        const record = (key: string, age: string, status: number | null, lockedFor: string | null) => sql`
          insert into idempotency_records (scope, idempotency_key, request_hash, status_code, created_at, claim_token, locked_until)
          values ('client:x', ${key}, 'hash', ${status}, now() - ${age}::interval, 'token',
                  case when ${lockedFor}::interval is null then null else now() + ${lockedFor}::interval end)`.execute(database.db);
        for (let index = 0; index < 5; index += 1) await record(`answered-${index}`, "2 hours", 201, null);
        await record("claim-expired", "2 hours", null, "-1 minute");
        await record("answered-by-log", "61 minutes", null, "-50 minutes");
        await record("still-running", "2 hours", null, "1 minute");
        await record("young", "59 minutes", 201, null);
        await record("young-running", "1 minute", null, "1 minute");
        const first = purge(2);
        const other = purge(2);
        try {
          expect(await first.purgeOnce()).toBe(7);
          // The lease is the first one's until it stops: the other purges nothing meanwhile.
          await record("answered-later", "2 hours", 201, null);
          expect(await other.purgeOnce()).toBe(0);
        } finally {
          await first.stop();
        }
        expect(await other.purgeOnce()).toBe(1);
        await other.stop();
        const left = await database.db.selectFrom("idempotency_records").select("idempotency_key").orderBy("idempotency_key").execute();
        expect(left.map((row) => row.idempotency_key)).toEqual(["still-running", "young", "young-running"]);
      } finally {
        await database.close();
      }
    });
  });
}
