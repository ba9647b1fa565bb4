import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrateToLatest } from "../../src/db/migrations/index.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { verifyReadModel } from "../../src/projections/verify-read-model.ts";
import { transactionsProjection } from "../../src/projections/transactions/transactions-projection.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ApiResponse, type Json, startTestService, type TestService } from "../support/service.ts";
import { loopbackWebhookEnvironment, startWebhookReceiver, subjectOf, typeOf, type WebhookReceiver } from "../support/webhook-receiver.ts";

// `state` (docs/api.md, the transaction object): every state reachable today, on GET, in history,
// at `?asOf=`, in `transaction.updated` webhooks, and on a database migrated from before it existed.

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });
const APPROVED = "4242424242424242";
const TTL_SECONDS = 3_600;

/** Real time plus an offset the test moves forward, so the webhook dispatcher's schedule keeps falling due. */
function offsetClock() {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (seconds: number) => (offsetMs += seconds * 1000) };
}

for (const target of testDatabaseTargets()) {
  describe(`transaction state, on ${target}`, () => {
    const clock = offsetClock();
    let api: TestService;
    let receiver: WebhookReceiver;
    let acme: Awaited<ReturnType<TestService["createClient"]>>;

    beforeAll(async () => {
      receiver = await startWebhookReceiver(200);
      api = await startTestService(
        target,
        {
          LIFECYCLE_CHECK_INTERVAL_MS: "50",
          AUTHORIZATION_TTL_SECONDS: String(TTL_SECONDS),
          ...loopbackWebhookEnvironment({ retryBaseMs: 20, dispatchIntervalMs: 50 }),
        },
        { now: clock.now },
      );
      acme = await api.createClient("Acme");
      const created = await api.request("POST", "/v1/host-configurations/processor_a", {
        body: { ...validBodies.processor_a, clientId: acme.clientId },
      });
      expect(created.status, created.text).toBe(201);
      const endpoint = await api.request("POST", "/v1/webhook-endpoints", {
        key: acme.key,
        body: { url: `${receiver.url}/all`, events: ["*"] },
      });
      expect(endpoint.status, endpoint.text).toBe(201);
    });
    afterAll(async () => {
      await api?.stop();
      await receiver?.close();
    });

    const post = (type: string, body: Json) => api.request("POST", `/v1/transactions/${type}`, { key: acme.key, body });
    const recorded = (response: ApiResponse): Json => response.body.transaction ?? response.body;
    const pay = async (type: "sale" | "authorization", amount: number, number = APPROVED) =>
      recorded(await post(type, { processor: "processor_a", amount, currency: "USD", card: card(number), userId: "u1" }));
    const follow = async (type: "capture" | "refund" | "void", transactionId: string, amount?: number) => {
      const response = await post(type, amount === undefined ? { transactionId } : { transactionId, amount });
      expect(response.status, response.text).toBe(201);
      return response.body as Json;
    };
    const read = async (id: string, query = "") => {
      const response = await api.request("GET", `/v1/transactions/${id}${query}`, { key: acme.key });
      expect(response.status, response.text).toBe(200);
      return response.body as Json;
    };
    const stateOf = async (id: string) => (await read(id)).state as string;
    const history = async (query: string) => {
      const response = await api.request("GET", `/v1/transactions?limit=100&${query}`, { key: acme.key });
      expect(response.status, response.text).toBe(200);
      return (response.body.data as Json[]).map((transaction) => transaction.id as string).sort();
    };

    /** Each transaction made below, with the state it must read. */
    const expected = new Map<string, string>();

    it("an authorization reads authorized, partially_captured, captured, voided, expired, declined or failed", async () => {
      const held = await pay("authorization", 1000);
      expected.set(held.id, "authorized");
      expect(held.state).toBe("authorized");

      const partly = await pay("authorization", 1000);
      const firstCapture = await follow("capture", partly.id, 400);
      expected.set(partly.id, "partially_captured").set(firstCapture.id, "succeeded");
      expect(await stateOf(partly.id)).toBe("partially_captured");

      const whole = await pay("authorization", 1000);
      const secondCapture = await follow("capture", whole.id, 600);
      const lastCapture = await follow("capture", whole.id);
      expected.set(whole.id, "captured").set(secondCapture.id, "succeeded").set(lastCapture.id, "succeeded");
      expect(await stateOf(whole.id)).toBe("captured");

      const released = await pay("authorization", 1000);
      const voided = await follow("void", released.id);
      expected.set(released.id, "voided").set(voided.id, "succeeded");
      expect(voided.state).toBe("succeeded");
      expect(await read(released.id)).toMatchObject({ status: "approved", voided: true, state: "voided" });

      const declined = await pay("authorization", 1000, "4000000000000002");
      const failed = await pay("authorization", 1000, "4000000000000119");
      expected.set(declined.id, "declined").set(failed.id, "failed");
      expect([declined.state, failed.state]).toEqual(["declined", "failed"]);

      // A capture voided gives its amount back to the authorization: authorized again.
      const recaptured = await pay("authorization", 1000);
      const voidedCapture = await follow("capture", recaptured.id);
      expect(await stateOf(recaptured.id)).toBe("captured");
      const captureVoid = await follow("void", voidedCapture.id);
      expected.set(recaptured.id, "authorized").set(voidedCapture.id, "voided").set(captureVoid.id, "succeeded");
      expect(await stateOf(recaptured.id)).toBe("authorized");
    });

    it("an authorization past its time reads expired, or captured when its captures stay and the rest is released", async () => {
      const untouched = await pay("authorization", 2000);
      const partly = await pay("authorization", 2000);
      const capture = await follow("capture", partly.id, 500);
      clock.advance(TTL_SECONDS + 1);
      await vi.waitFor(async () => expect(await read(untouched.id)).toMatchObject({ voided: true, state: "expired" }), { timeout: 15_000, interval: 50 });
      await vi.waitFor(async () => expect(await read(partly.id)).toMatchObject({ voided: true, capturedAmount: 500, state: "captured" }), {
        timeout: 15_000,
        interval: 50,
      });
      // Every authorization made before expires with them: what was still held is released.
      for (const [id, state] of expected) {
        if (state === "authorized") expected.set(id, "expired");
        if (state === "partially_captured") expected.set(id, "captured");
      }
      expected.set(untouched.id, "expired").set(partly.id, "captured").set(capture.id, "succeeded");
      for (const id of await history(`parentTransactionId=${untouched.id}`)) expected.set(id, "succeeded");
      for (const id of await history(`parentTransactionId=${partly.id}&type=void`)) expected.set(id, "succeeded");
    });

    it("a sale reads succeeded, partially_refunded, refunded or voided, and a refund succeeded", async () => {
      const sale = await pay("sale", 1000);
      expect(sale.state).toBe("succeeded");
      const partly = await pay("sale", 1000);
      const refund = await follow("refund", partly.id, 300);
      const whole = await pay("sale", 1000);
      const firstRefund = await follow("refund", whole.id, 300);
      const rest = await follow("refund", whole.id);
      const voidedSale = await pay("sale", 1000);
      const voided = await follow("void", voidedSale.id);
      expected
        .set(sale.id, "succeeded")
        .set(partly.id, "partially_refunded")
        .set(refund.id, "succeeded")
        .set(whole.id, "refunded")
        .set(firstRefund.id, "succeeded")
        .set(rest.id, "succeeded")
        .set(voidedSale.id, "voided")
        .set(voided.id, "succeeded");
      expect(refund.state).toBe("succeeded");
      expect(await stateOf(partly.id)).toBe("partially_refunded");
      expect(await stateOf(whole.id)).toBe("refunded");
      expect(await stateOf(voidedSale.id)).toBe("voided");
    });

    it("a transaction left waiting on the processor reads pending", async () => {
      const response = await post("sale", { processor: "processor_a", amount: 700, currency: "USD", card: card("4000000000000408"), userId: "u1" });
      expect(response.status, response.text).toBe(504);
      expect(response.body.transaction).toMatchObject({ status: "pending", state: "pending" });
    });

    it("GET and the history list agree on every state, and ?state= lists exactly the transactions in it", async () => {
      for (const [id, state] of expected) expect(await stateOf(id), id).toBe(state);
      for (const state of new Set(expected.values())) {
        const listed = await history(`state=${state}`);
        const wanted = [...expected].filter(([, s]) => s === state).map(([id]) => id);
        for (const id of wanted) expect(listed, `${state}`).toContain(id);
        for (const id of listed) if (expected.has(id)) expect(expected.get(id), `${id} listed under ${state}`).toBe(state);
      }
    });

    it("?parentTransactionId= lists a payment's captures, refunds and voids, and nothing else", async () => {
      const authorization = await pay("authorization", 1000);
      const capture = await follow("capture", authorization.id, 300);
      const refund = await follow("refund", capture.id, 100);
      const voidedCapture = await follow("capture", authorization.id, 200);
      const captureVoid = await follow("void", voidedCapture.id);
      expect(await history(`parentTransactionId=${authorization.id}`)).toEqual([capture.id, voidedCapture.id].sort());
      expect(await history(`parentTransactionId=${capture.id}`)).toEqual([refund.id]);
      expect(await history(`parentTransactionId=${voidedCapture.id}`)).toEqual([captureVoid.id]);
      expect(await history(`parentTransactionId=${refund.id}`)).toEqual([]);
      expect(await read(authorization.id)).toMatchObject({ capturedAmount: 300, state: "partially_captured" });
      expect(await read(capture.id)).toMatchObject({ state: "partially_refunded" });
    });

    it("?asOf= gives the state as it stood then", async () => {
      const sale = await pay("sale", 1000);
      const before = await read(sale.id);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const refund = await follow("refund", sale.id, 1000);
      expect(await read(sale.id, `?asOf=${encodeURIComponent(before.updatedAt)}`)).toMatchObject({ state: "succeeded", refundedAmount: 0 });
      expect(await read(sale.id, `?asOf=${encodeURIComponent(refund.updatedAt)}`)).toMatchObject({ state: "refunded", refundedAmount: 1000 });
    });

    it("sends transaction.updated for the transaction a later one changed, in order with its own messages", async () => {
      const sale = await pay("sale", 1000);
      await follow("refund", sale.id, 400);
      const authorization = await pay("authorization", 1000);
      await follow("capture", authorization.id, 1000);
      const messagesOf = (requests: typeof receiver.requests, subject: string) =>
        requests.filter((request) => subjectOf(request) === subject).map((request) => [typeOf(request), JSON.parse(request.body).data.transaction.state]);
      const received = await receiver.waitFor(
        (requests) => messagesOf(requests, sale.id).length >= 3 && messagesOf(requests, authorization.id).length >= 3,
        { path: "/all", timeoutMs: 20_000 },
      );
      expect(messagesOf(received, sale.id)).toEqual([
        ["transaction.pending", "pending"],
        ["transaction.approved", "succeeded"],
        ["transaction.updated", "partially_refunded"],
      ]);
      expect(messagesOf(received, authorization.id)).toEqual([
        ["transaction.pending", "pending"],
        ["transaction.approved", "authorized"],
        ["transaction.updated", "captured"],
      ]);
    });

    it("a database from before state existed is upgraded to serve it, equal to a replay", async () => {
      const { db } = api.database;
      const served = new Map<string, Json>();
      for (const id of await history("")) served.set(id, await read(id));
      // The sale left waiting may be resolved any moment: every other transaction stays as it is.
      const settledIds = [...served.keys()].filter((id) => served.get(id)!.status !== "pending");
      // As the release before migration 0021 left it: no state, no parent column, views without
      // state; and nothing of what came after it: the card vault (0022), deliveries' trace context
      // (0023), idempotency records' resource ids (0024), the card fingerprint keys (0025), the settlement list's indexes (0026),
      // API key names and last uses (0027), payment method uses (0028, dropped by 0030), the journal (0029),
      // the notices between processes (0031).
      await sql`drop table payment_method_keys, payment_methods, card_fingerprint_keys, api_key_last_used, journal_entries, journal_payments`.execute(db);
      await sql`drop trigger events_appended on events`.execute(db);
      await sql`drop trigger projection_applied on projection_checkpoints`.execute(db);
      await sql`drop function notify_events_appended(), notify_projection_applied()`.execute(db);
      await sql`alter table api_keys drop column name`.execute(db);
      await sql`drop index transactions_client_payment_method_created, settlements_listed, settlements_client_listed`.execute(db);
      await sql`delete from projection_checkpoints where projection in ('payment_methods', 'journal')`.execute(db);
      await sql`alter table transactions drop column state, drop column parent_transaction_id`.execute(db);
      await sql`update transactions set view = (view::jsonb - 'state' - 'paymentMethodId')::json`.execute(db);
      await sql`alter table webhook_deliveries drop column traceparent`.execute(db);
      await sql`alter table idempotency_records drop column resource_id`.execute(db);
      await sql`delete from kysely_migration where name >= '0021'`.execute(db);
      expect((await sql<{ view: Json }>`select view from transactions limit 1`.execute(db)).rows[0]!.view).not.toHaveProperty("state");

      await migrateToLatest(db as Kysely<unknown>);
      await api.restart();
      for (const id of settledIds) expect(await read(id), id).toEqual(served.get(id));
      for (const state of new Set(settledIds.map((id) => served.get(id)!.state as string))) {
        const wanted = settledIds.filter((id) => served.get(id)!.state === state);
        expect((await history(`state=${state}`)).filter((id) => settledIds.includes(id)), state).toEqual(wanted.sort());
      }
      for (const id of settledIds) {
        const parent = served.get(id)!.parentTransactionId as string | null;
        if (parent !== null) expect(await history(`parentTransactionId=${parent}`)).toContain(id);
      }

      const verdict = await verifyReadModel({ db, store: new PostgresEventStore(db), projection: transactionsProjection });
      expect(verdict).toMatchObject({ status: "compared", differences: [] });
    });
  });
}
