import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandom } from "../../bench/chaos/random.ts";
import { type Answer, runWorkload, setUpClients, type StoredPaymentMethod, type WorkloadClient, type WorkloadStats } from "../../bench/chaos/workload.ts";
import { startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

describe("seeded random", () => {
  const draw = (seed: number) => {
    const random = createRandom(seed);
    return [random.int(0, 1_000_000), random.pick(["a", "b", "c", "d"]), random.chance(0.5), random.uuid(), random.int(1, 6)];
  };

  it("gives the same sequence for the same seed", () => {
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("forks streams that depend on the seed and the label only", () => {
    const sequence = (random: ReturnType<typeof createRandom>) => Array.from({ length: 8 }, () => random.int(0, 1_000_000));
    const parent = createRandom(7);
    const early = sequence(parent.fork("user-1"));
    sequence(parent);
    expect(sequence(parent.fork("user-1"))).toEqual(early);
    expect(sequence(createRandom(7).fork("user-2"))).not.toEqual(early);
    expect(sequence(createRandom(8).fork("user-1"))).not.toEqual(early);
  });

  it("draws v4-shaped UUIDs", () => {
    const random = createRandom(1);
    for (let index = 0; index < 50; index += 1) {
      expect(random.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it("keeps int within its inclusive bounds and reaches both", () => {
    const random = createRandom(3);
    const values = new Set(Array.from({ length: 200 }, () => random.int(1, 3)));
    expect([...values].toSorted()).toEqual([1, 2, 3]);
  });
});

describe("chaos workload against one service", () => {
  // Two to draw from; whether one comes round during the test does not matter to it.
  const settlementTimes = [
    { settlementTime: "00:01", at: new Date(Date.UTC(2099, 0, 1, 0, 1)) },
    { settlementTime: "00:02", at: new Date(Date.UTC(2099, 0, 1, 0, 2)) },
  ];
  let api: TestService;
  let clients: WorkloadClient[];
  let answers: Answer[];
  let stats: WorkloadStats;
  let paymentMethods: StoredPaymentMethod[];

  beforeAll(async () => {
    api = await startTestService("pglite", { PROCESSOR_TIMEOUT_MS: "1000", PROCESSOR_OWN_TIMEOUT_SECONDS: "1" });
    const random = createRandom(20_240_601);
    clients = await setUpClients({ baseUrl: api.url, adminKey: TEST_ADMIN_KEY, count: 2, random: random.fork("setup"), settlementTimes });
    const stop = new AbortController();
    const running = runWorkload({
      baseUrls: [api.url],
      clients,
      adminKey: TEST_ADMIN_KEY,
      random: random.fork("workload"),
      users: 3,
      signal: stop.signal,
      retryBudgetMs: 15_000,
      attemptTimeoutMs: 10_000,
    });
    await delay(6_000);
    stop.abort();
    ({ answers, stats, paymentMethods } = await running);
    // Starting the service takes most of it on a busy machine.
  }, 90_000);
  afterAll(async () => {
    await api?.stop();
  });

  it("sets up clients whose keys and host configurations work", async () => {
    expect(clients).toHaveLength(2);
    for (const client of clients) {
      const configuration = await api.request("GET", `/v1/host-configurations/processor_c/${client.hostConfigurationIds.processor_c}`, {
        key: client.key,
      });
      expect(configuration.status).toBe(200);
      expect(configuration.body.clientId).toBe(client.clientId);
      const close = client.scheduledCloses.processor_c;
      expect(settlementTimes).toContain(close);
      expect(configuration.body.settings).toMatchObject({ settlementTime: close?.settlementTime, timeZone: "UTC" });
    }
  });

  it("gets approved sales and follow-ups, and counts every outcome", () => {
    expect(answers.some((answer) => answer.operation === "sale" && answer.status === "approved")).toBe(true);
    expect(answers.some((answer) => ["capture", "refund", "void"].includes(answer.operation))).toBe(true);
    expect(stats.outcomes.get("sale 201")).toBeGreaterThan(0);
    const operationsCounted = [...stats.outcomes]
      .filter(([outcome]) => !outcome.startsWith("read ") && !outcome.startsWith("history "))
      .reduce((sum, [, count]) => sum + count, 0);
    expect(operationsCounted).toBeGreaterThanOrEqual(new Set(answers.map((answer) => answer.idempotencyKey)).size);
  });

  it("pays with stored cards for a share of its sales and authorizations, and with cards inline for the rest", () => {
    const roots = answers.filter((answer) => answer.operation === "sale" || answer.operation === "authorization");
    const withStoredCard = roots.filter((answer) => answer.paymentMethodId !== null);
    expect(paymentMethods.length).toBeGreaterThan(0);
    expect(stats.outcomes.get("store-payment-method 201")).toBe(paymentMethods.length);
    expect(withStoredCard.some((answer) => answer.status === "approved")).toBe(true);
    expect(roots.some((answer) => answer.paymentMethodId === null && answer.status === "approved")).toBe(true);
    const stored = new Set(paymentMethods.map((paymentMethod) => paymentMethod.id));
    for (const answer of withStoredCard) expect(stored).toContain(answer.paymentMethodId);
  });

  it("answers 201 only with approved transactions", () => {
    for (const answer of answers.filter((answer) => answer.httpStatus === 201)) expect(answer.status).toBe("approved");
  });

  it("binds every Idempotency-Key to one transaction, replays included", () => {
    const idsByKey = new Map<string, Set<string>>();
    for (const answer of answers) {
      const key = `${answer.clientId} ${answer.idempotencyKey}`;
      idsByKey.set(key, (idsByKey.get(key) ?? new Set()).add(answer.transactionId));
    }
    for (const [key, ids] of idsByKey) expect([key, ids.size]).toEqual([key, 1]);
  });

  it("finds every answered transaction in the ledger with the status it was answered with", async () => {
    const keyOf = new Map(clients.map((client) => [client.clientId, client.key]));
    const stored = new Map<string, string>();
    for (const answer of answers) {
      if (answer.httpStatus === 504 && answer.status === "pending") continue;
      if (!stored.has(answer.transactionId)) {
        const read = await api.request("GET", `/v1/transactions/${answer.transactionId}`, { key: keyOf.get(answer.clientId) ?? null });
        expect(read.status).toBe(200);
        stored.set(answer.transactionId, read.body.status);
        if (answer.operation === "sale" || answer.operation === "authorization") {
          expect([answer.transactionId, read.body.paymentMethodId]).toEqual([answer.transactionId, answer.paymentMethodId]);
        }
      }
      expect([answer.transactionId, stored.get(answer.transactionId)]).toEqual([answer.transactionId, answer.status]);
    }
  }, 30_000);
});

interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  body: string;
  /** 1 for the first request under its Idempotency-Key. */
  attempt: number;
}

interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An HTTP server that answers as `answer` says and remembers every request. */
async function startFakeService(answer: (request: FakeRequest) => FakeAnswer) {
  const requests: (FakeRequest & { at: number })[] = [];
  const server = createServer((incoming, outgoing) => {
    let body = "";
    incoming.on("data", (chunk: Buffer) => (body += chunk.toString()));
    incoming.on("end", () => {
      const idempotencyKey = incoming.headers["idempotency-key"] as string | undefined;
      const attempt = 1 + requests.filter((seen) => idempotencyKey !== undefined && seen.idempotencyKey === idempotencyKey).length;
      const request = { method: incoming.method ?? "", path: incoming.url ?? "", idempotencyKey, body, attempt };
      requests.push({ ...request, at: Date.now() });
      const { status, body: answerBody, headers = {} } = answer(request);
      outgoing.writeHead(status, { "content-type": "application/json", ...headers });
      outgoing.end(answerBody === undefined ? "" : JSON.stringify(answerBody));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback address where nothing listens: connections are refused. */
async function refusingUrl(): Promise<string> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const fakeClient: WorkloadClient = {
  clientId: "client-1",
  key: "client-key",
  hostConfigurationIds: { processor_a: "a", processor_b: "b", processor_c: "c", processor_d: "d" },
  limit: { currency: "USD", dailyAmount: 5_000_000, maxAmountPerTransaction: 10_000 },
  scheduledCloses: { processor_a: null, processor_b: null, processor_c: null, processor_d: null },
};

const transactionFor = (request: FakeRequest, id: string, status: string) => {
  const sent = JSON.parse(request.body) as { amount?: number; transactionId?: string };
  return { id, status, amount: sent.amount ?? 100, parentTransactionId: sent.transactionId ?? null };
};

const readAnswer = (request: FakeRequest): FakeAnswer =>
  request.path.startsWith("/v1/transactions?") ? { status: 200, body: { data: [], nextCursor: null } } : { status: 200, body: {} };

async function runFor(milliseconds: number, options: Omit<Parameters<typeof runWorkload>[0], "signal" | "clients" | "random">) {
  const stop = new AbortController();
  const running = runWorkload({ ...options, clients: [fakeClient], random: createRandom(99), signal: stop.signal });
  await delay(milliseconds);
  stop.abort();
  return running;
}

describe("the workload retries like a careful integrator", () => {
  it("retries refused connections, 429, 409 in progress and 504 pending with the same key and body, until the 201", async () => {
    const transactionIds = new Map<string, string>();
    const fake = await startFakeService((request) => {
      if (request.method !== "POST") return readAnswer(request);
      const key = request.idempotencyKey ?? "";
      const id = transactionIds.get(key) ?? randomUUID();
      transactionIds.set(key, id);
      switch (request.attempt) {
        case 1:
          return { status: 429, body: { code: "rate_limited" }, headers: { "retry-after": "1" } };
        case 2:
          return { status: 409, body: { code: "idempotency_request_in_progress" } };
        case 3:
          return { status: 504, body: { code: "processor_timeout", transaction: transactionFor(request, id, "pending") } };
        default:
          return { status: 201, body: transactionFor(request, id, "approved") };
      }
    });
    try {
      const { answers, stats } = await runFor(1_000, { adminKey: TEST_ADMIN_KEY, baseUrls: [await refusingUrl(), fake.url], users: 2, retryBudgetMs: 20_000 });

      const posts = fake.requests.filter((request) => request.method === "POST");
      const keys = [...new Set(posts.map((request) => request.idempotencyKey))];
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const attempts = posts.filter((request) => request.idempotencyKey === key);
        expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4]);
        expect(new Set(attempts.map((attempt) => `${attempt.path} ${attempt.body}`)).size).toBe(1);
        expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(950);
        // An operator's batch close and a stored card carry no transaction to record.
        if (attempts[0]!.path.endsWith("/settle") || attempts[0]!.path === "/v1/payment-methods") continue;
        const answered = answers.filter((answer) => answer.idempotencyKey === key);
        expect(answered.map((answer) => [answer.httpStatus, answer.status, answer.transactionId])).toEqual([
          [504, "pending", transactionIds.get(key ?? "")],
          [201, "approved", transactionIds.get(key ?? "")],
        ]);
      }
      expect(stats.gaveUp).toBe(0);
      expect(stats.retries).toBeGreaterThanOrEqual(3 * keys.length);
      for (const [outcome] of stats.outcomes) expect(outcome).toMatch(/ 200$| 201$/);
    } finally {
      await fake.close();
    }
  }, 30_000);

  it("takes a decided 5xx and other 4xx as final", async () => {
    const fake = await startFakeService((request) => {
      if (request.method !== "POST") return readAnswer(request);
      if (request.path.endsWith("/sale")) return { status: 201, body: transactionFor(request, randomUUID(), "approved") };
      if (request.path.endsWith("/authorization")) {
        return { status: 502, body: { code: "processor_error", transaction: transactionFor(request, randomUUID(), "failed") } };
      }
      return { status: 409, body: { code: "invalid_transaction_state" } };
    });
    try {
      const { answers, stats } = await runFor(1_000, { adminKey: TEST_ADMIN_KEY, baseUrls: [fake.url], users: 1 });
      const posts = fake.requests.filter((request) => request.method === "POST");
      expect(posts.every((request) => request.attempt === 1)).toBe(true);
      expect(stats.retries).toBe(0);
      expect(answers.map((answer) => `${answer.operation} ${answer.httpStatus} ${answer.status}`).toSorted()).toEqual(
        posts
          .filter((request) => request.path.endsWith("/sale") || request.path.endsWith("/authorization"))
          .map((request) => (request.path.endsWith("/sale") ? "sale 201 approved" : "authorization 502 failed"))
          .toSorted(),
      );
      expect([...stats.outcomes.keys()].filter((outcome) => outcome.includes("409"))).not.toEqual([]);
      for (const [outcome] of stats.outcomes) {
        expect(outcome).toMatch(/^(sale 201|authorization 502|(refund|void|settle|store-payment-method) 409 invalid_transaction_state|read 200|history 200)$/);
      }
    } finally {
      await fake.close();
    }
  });

  it("sends a store of a card it gave up on again, under its key and with its body, once the load is over, and records the method then", async () => {
    let healed = false;
    const fake = await startFakeService((request) => {
      if (request.method !== "POST") return readAnswer(request);
      if (request.path !== "/v1/payment-methods") return { status: 201, body: transactionFor(request, randomUUID(), "approved") };
      if (!healed) return { status: 503, body: { code: "service_unavailable" }, headers: { "retry-after": "0" } };
      return { status: 201, body: { id: `method-for-${request.idempotencyKey}` } };
    });
    try {
      const stop = new AbortController();
      const running = runWorkload({ adminKey: TEST_ADMIN_KEY, baseUrls: [fake.url], users: 2, retryBudgetMs: 300, clients: [fakeClient], random: createRandom(7), signal: stop.signal });
      await delay(1_500);
      healed = true;
      stop.abort();
      const { stats, paymentMethods } = await running;

      expect(stats.outcomes.get("store-payment-method gave_up")).toBeGreaterThan(0);
      const stores = fake.requests.filter((request) => request.path === "/v1/payment-methods");
      expect(stats.outcomes.get("store-payment-method again 201")).toBe(stats.outcomes.get("store-payment-method gave_up"));
      for (const key of new Set(stores.map((request) => request.idempotencyKey))) {
        const attempts = stores.filter((request) => request.idempotencyKey === key);
        expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
        expect(paymentMethods.map((method) => method.id)).toContain(`method-for-${key}`);
      }
    } finally {
      await fake.close();
    }
  });

  it("retries a 5xx without a transaction until the retry budget, then gives up and ends soon after the signal", async () => {
    const fake = await startFakeService(() => ({ status: 500, body: { code: "internal_error" } }));
    try {
      const started = Date.now();
      const { answers, stats } = await runFor(200, { adminKey: TEST_ADMIN_KEY, baseUrls: [fake.url], users: 2, retryBudgetMs: 1_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(answers).toEqual([]);
      expect(stats.outcomes.size).toBeGreaterThan(0);
      for (const [outcome] of stats.outcomes) expect(outcome).toMatch(/ gave_up$/);
      const operationsGivenUp = [...stats.outcomes]
        .filter(([outcome]) => !outcome.startsWith("read ") && !outcome.startsWith("history "))
        .reduce((sum, [, count]) => sum + count, 0);
      expect(stats.gaveUp).toBe(operationsGivenUp);
    } finally {
      await fake.close();
    }
  });
});
