import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { transactionAsOf } from "../../src/api/transaction-as-of.ts";
import { PostgresEventStore } from "../../src/eventstore/postgres/event-store.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { type ApiResponse, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";

type Client = Awaited<ReturnType<TestService["createClient"]>>;
interface AuditEvent {
  id: string;
  streamId: string;
  position: string;
  revision: number;
  type: string;
  occurredAt: string;
  recordedAt: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

const CARD_NUMBER = "5555555555554444";
const card = { number: CARD_NUMBER, expMonth: 12, expYear: 2030, cvc: "987" };
const isoTimestamp = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const later = (iso: string, ms: number) => new Date(Date.parse(iso) + ms);

for (const target of testDatabaseTargets()) {
  describe(`audit trail on ${target}`, () => {
    let api: TestService;
    let acme: Client;
    let globex: Client;
    let auth: ApiResponse["body"];
    let capture: ApiResponse["body"];
    let refund: ApiResponse["body"];

    const post = async (path: string, body: Record<string, unknown>, key = acme.key) => {
      const response = await api.request("POST", path, { key, body, headers: { "idempotency-key": `key-${Math.random()}` } });
      expect(response.status, response.text).toBe(201);
      return response.body;
    };
    const sale = (key: string, amount = 500) =>
      post("/v1/transactions/sale", { processor: "processor_a", amount, currency: "USD", userId: "user_9", card }, key);

    beforeAll(async () => {
      api = await startTestService(target);
      acme = await api.createClient("Acme");
      globex = await api.createClient("Globex");
      for (const client of [acme, globex]) {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", {
          body: { ...validBodies.processor_a, clientId: client.clientId },
        });
        expect(created.status).toBe(201);
      }
      auth = await post("/v1/transactions/authorization", {
        processor: "processor_a",
        amount: 1000,
        currency: "USD",
        userId: "user_9",
        reference: "order-9",
        card,
      });
      capture = await post("/v1/transactions/capture", { transactionId: auth.id, amount: 600 });
      refund = await post("/v1/transactions/refund", { transactionId: capture.id, amount: 200, reason: "damaged" });
    });
    afterAll(() => api.stop());

    describe("GET /v1/transactions/{id}/events", () => {
      it("gives the payment's whole stream, oldest first, from any of its transactions", async () => {
        const response = await api.request("GET", `/v1/transactions/${capture.id}/events`, { key: acme.key });
        expect(response.status, response.text).toBe(200);
        const { streamId, events } = response.body as { streamId: string; events: AuditEvent[] };
        expect(streamId).toBe(`payment-${auth.id}`);
        expect(events.map((event) => [event.type, event.data.transactionId])).toEqual([
          ["TransactionInitiated.v1", auth.id],
          ["TransactionApproved.v1", auth.id],
          ["TransactionInitiated.v1", capture.id],
          ["TransactionApproved.v1", capture.id],
          ["TransactionInitiated.v1", refund.id],
          ["TransactionApproved.v1", refund.id],
        ]);
        expect(events.map((event) => event.revision)).toEqual([0, 1, 2, 3, 4, 5]);
        for (const event of events) {
          expect(event).toMatchObject({ streamId, position: expect.stringMatching(/^\d+$/) });
          expect(event.occurredAt).toMatch(isoTimestamp);
          expect(event.recordedAt).toMatch(isoTimestamp);
          expect(event.metadata).toMatchObject({ requestId: expect.any(String), actor: { role: "client", clientId: acme.clientId } });
        }
        const positions = events.map((event) => BigInt(event.position));
        expect(positions).toEqual([...positions].sort((a, b) => (a < b ? -1 : 1)));
        expect(events[0]!.data).toMatchObject({ type: "authorization", amount: 1000, reference: "order-9", card: { last4: "4444" } });
        expect(Object.keys(events[0]!.data.card as object).sort()).toEqual(["brand", "expMonth", "expYear", "fingerprint", "last4"]);
        expect(events[4]!.data).toMatchObject({ type: "refund", reason: "damaged", parentTransactionId: capture.id });
        expect(events[1]!.occurredAt).toBe(auth.updatedAt);
        expect(response.text).not.toContain(CARD_NUMBER);
        expect(response.text).not.toContain('"987"');

        for (const id of [auth.id, refund.id]) {
          const same = await api.request("GET", `/v1/transactions/${id}/events`, { key: acme.key });
          expect(same.body).toEqual(response.body);
        }
        const asAdmin = await api.request("GET", `/v1/transactions/${auth.id}/events`);
        expect(asAdmin.body).toEqual(response.body);
      });

      it("hides another client's transaction (404), unknown ids (404) and checks the id (400)", async () => {
        const other = await api.request("GET", `/v1/transactions/${auth.id}/events`, { key: globex.key });
        expect(other.status).toBe(404);
        expect(other.body.code).toBe("not_found");
        const unknown = await api.request("GET", "/v1/transactions/0190a8e2-7c3b-7def-8a12-000000000000/events", { key: acme.key });
        expect(unknown.status).toBe(404);
        const bad = await api.request("GET", "/v1/transactions/nope/events", { key: acme.key });
        expect(bad.status).toBe(400);
        expect(bad.body.errors).toEqual([expect.objectContaining({ path: "id" })]);
        expect((await api.request("GET", `/v1/transactions/${auth.id}/events`, { key: null })).status).toBe(401);
      });

      it("records a declined sale's stream too", async () => {
        const declined = await api.request("POST", "/v1/transactions/sale", {
          key: globex.key,
          body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: { ...card, number: "4000000000000002" } },
        });
        expect(declined.status).toBe(402);
        const response = await api.request("GET", `/v1/transactions/${declined.body.transaction.id}/events`, { key: globex.key });
        expect(response.body.events.map((event: AuditEvent) => event.type)).toEqual(["TransactionInitiated.v1", "TransactionDeclined.v1"]);
        expect(response.body.events[1].data).toMatchObject({ declineCode: "card_declined" });
      });
    });

    describe("GET /v1/events", () => {
      async function readLog(limit: number, start: string | null = null) {
        const events: AuditEvent[] = [];
        let cursor = start;
        let lastCursor = start;
        for (;;) {
          const response: ApiResponse = await api.request("GET", `/v1/events?limit=${limit}${cursor ? `&after=${cursor}` : ""}`);
          expect(response.status, response.text).toBe(200);
          expect(response.body.data.length).toBeLessThanOrEqual(limit);
          events.push(...response.body.data);
          if (response.body.nextCursor === null) {
            expect(response.body.data).toEqual([]);
            return { events, lastCursor };
          }
          cursor = response.body.nextCursor;
          lastCursor = cursor;
        }
      }

      it("pages through the whole log in global order, and resumes after the last event", async () => {
        const whole = await readLog(100);
        const paged = await readLog(7);
        expect(paged.events).toEqual(whole.events);
        expect(new Set(paged.events.map((event) => event.id)).size).toBe(paged.events.length);
        expect(whole.events.map((event) => event.type)).toEqual(
          expect.arrayContaining(["ClientRegistered.v1", "HostConfigurationCreated.v1", "TransactionInitiated.v1"]),
        );
        const stream = await api.request("GET", `/v1/transactions/${auth.id}/events`, { key: acme.key });
        const ofPayment = whole.events.filter((event) => event.streamId === `payment-${auth.id}`);
        expect(ofPayment).toEqual(stream.body.events);
        expect(JSON.stringify(whole.events)).not.toContain(CARD_NUMBER);

        // Newer events, and only those, follow the cursor of the last page.
        const newer = await sale(acme.key, 321);
        await vi.waitFor(
          async () => {
            const next = await readLog(100, paged.lastCursor);
            expect(next.events.map((event) => [event.type, event.data.transactionId])).toEqual([
              ["TransactionInitiated.v1", newer.id],
              ["TransactionApproved.v1", newer.id],
            ]);
          },
          { timeout: 5_000, interval: 50 },
        );
      });

      it("keeps an event committed late: a cursor given out while its append was open still leads to it, once", async ({ skip }) => {
        if (target === "pglite") {
          const reason = "PGlite has one connection, so no append stays open while another commits";
          console.warn(`SKIPPED late-commit test of GET /v1/events on PGlite: ${reason}`);
          skip(reason);
        }
        const start = (await readLog(100)).lastCursor;
        const lateStream = `late-${crypto.randomUUID()}`;
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let appended!: (position: bigint) => void;
        const latePosition = new Promise<bigint>((resolve) => (appended = resolve));
        const committed = api.database.db.transaction().execute(async (trx) => {
          const result = await new PostgresEventStore(trx).append(lateStream, [{ type: "CommittedLate.v1", data: {} }], "no_stream");
          appended(result.position);
          await released;
        });
        const late = await latePosition;
        let whileOpen: Awaited<ReturnType<typeof readLog>>;
        let newer: ApiResponse["body"];
        try {
          // A sale appended and committed after the open append, at later positions; then the log paged to its end.
          newer = await sale(acme.key, 123);
          whileOpen = await readLog(1, start);
        } finally {
          release();
          await committed;
        }
        await vi.waitFor(
          async () => {
            const resumed = await readLog(1, whileOpen.lastCursor);
            const events = [...whileOpen.events, ...resumed.events];
            expect(events.filter((event) => event.streamId === lateStream)).toHaveLength(1);
            const saleEvents = events.filter((event) => event.streamId === `payment-${newer.id}`);
            expect(saleEvents).toHaveLength(2);
            // Committed out of order: a reader that resumed by position alone would have skipped the late event.
            expect(saleEvents.every((event) => BigInt(event.position) > late)).toBe(true);
          },
          { timeout: 5_000, interval: 50 },
        );
      });

      it("takes the cursor as `cursor` too, and ends with a null nextCursor", async () => {
        const first = await api.request("GET", "/v1/events?limit=3");
        const viaAfter = await api.request("GET", `/v1/events?limit=3&after=${first.body.nextCursor}`);
        const viaCursor = await api.request("GET", `/v1/events?limit=3&cursor=${first.body.nextCursor}`);
        expect(viaCursor.body).toEqual(viaAfter.body);
        expect(viaAfter.body.data[0].id).not.toBe(first.body.data.at(-1).id);
        const farAhead = Buffer.from("99999999999:99999999999").toString("base64url");
        expect((await api.request("GET", `/v1/events?after=${farAhead}`)).body).toEqual({ data: [], nextCursor: null, brokenLinks: 0 });
      });

      it("is for admins only", async () => {
        const asClient = await api.request("GET", "/v1/events", { key: acme.key });
        expect(asClient.status).toBe(403);
        expect(asClient.body.code).toBe("forbidden");
        expect((await api.request("GET", "/v1/events", { key: null })).status).toBe(401);
        expect((await api.request("GET", "/v1/events", { key: TEST_ADMIN_KEY })).status).toBe(200);
      });

      it.each([
        ["after=garbage", ["after"]],
        [`after=${Buffer.from("1:2:3").toString("base64url")}`, ["after"]],
        ["cursor=garbage", ["cursor"]],
        // Numbers that fit no position: a query given them would overflow.
        [`cursor=${Buffer.from("99999999999999999999:1").toString("base64url")}`, ["cursor"]],
        [`after=${Buffer.from("1:99999999999999999999").toString("base64url")}`, ["after"]],
        [`cursor=${Buffer.from("9223372036854775808:1").toString("base64url")}`, ["cursor"]],
        [`after=${Buffer.from("1:2").toString("base64url")}&cursor=${Buffer.from("1:3").toString("base64url")}`, ["cursor"]],
        ["limit=0", ["limit"]],
        ["limit=101", ["limit"]],
        ["from=0", ["from"]],
      ])("answers ?%s with 400 naming %j", async (search, paths) => {
        const response = await api.request("GET", `/v1/events?${search}`);
        expect(response.status, response.text).toBe(400);
        expect(response.body.code).toBe("validation_error");
        expect(response.body.errors.map((error: { path: string }) => error.path)).toEqual(paths);
        // A cursor it did not give out tells the reader what to pass instead (API.md).
        if (/^(after|cursor)=[^&]*$/.test(search)) expect(response.body.detail).toContain("nextCursor");
      });
    });

    describe("a transaction as of a moment, folded from its events", () => {
      it("transactionAsOf replays the stream up to that moment", async () => {
        const store = new PostgresEventStore(api.database.db);
        const current = (await api.request("GET", `/v1/transactions/${auth.id}`, { key: acme.key })).body;
        const asOf = async (id: string, at: Date) => (await transactionAsOf(store, auth.id, id, at)).transaction;

        expect(await asOf(auth.id, later(auth.createdAt, -1))).toBeNull();
        const initiated = await asOf(auth.id, new Date(auth.createdAt));
        expect(initiated).toMatchObject({ id: auth.id, status: auth.createdAt === auth.updatedAt ? "approved" : "pending" });
        expect(await asOf(auth.id, new Date(auth.updatedAt))).toEqual({ ...auth, capturedAmount: 0 });
        expect(await asOf(capture.id, later(capture.createdAt, -1))).toBeNull();
        expect(await asOf(auth.id, new Date(capture.updatedAt))).toMatchObject({ status: "approved", capturedAmount: 600 });
        expect(await asOf(capture.id, new Date(capture.updatedAt))).toEqual({ ...capture, refundedAmount: 0 });
        expect(await asOf(capture.id, new Date(refund.updatedAt))).toMatchObject({ refundedAmount: 200 });
        expect(await asOf(auth.id, new Date())).toEqual(current);
        expect(await asOf("0190a8e2-7c3b-7def-8a12-000000000000", new Date())).toBeNull();
        expect(await transactionAsOf(store, "0190a8e2-7c3b-7def-8a12-000000000000", auth.id, new Date())).toEqual({ transaction: null, brokenEvents: [] });
      });

      it("GET /v1/transactions/{id}?asOf= answers the same (once the route takes asOf)", async ({ skip }) => {
        const openapi = await api.request("GET", "/openapi.json", { key: null });
        const parameters: { name: string }[] = openapi.body.paths["/v1/transactions/{id}"]?.get?.parameters ?? [];
        if (!parameters.some((parameter) => parameter.name === "asOf")) skip("GET /v1/transactions/{id} does not take asOf yet");

        const at = (id: string, moment: string | Date, key = acme.key) =>
          api.request("GET", `/v1/transactions/${id}?asOf=${encodeURIComponent(new Date(moment).toISOString())}`, { key });
        // An intact stream: the fold says so, as the events routes do.
        const intact = { brokenLinks: 0, brokenEvents: [] };
        expect((await at(auth.id, auth.updatedAt)).body).toEqual({ ...auth, capturedAmount: 0, ...intact });
        expect((await at(auth.id, capture.updatedAt)).body).toMatchObject({ capturedAmount: 600 });
        expect((await at(capture.id, refund.updatedAt)).body).toMatchObject({ refundedAmount: 200 });
        expect((await at(capture.id, later(capture.createdAt, -1))).status).toBe(404);
        expect((await at(auth.id, auth.updatedAt, globex.key)).status).toBe(404);
        // A date alone, as the history filters take it: the state at the end of that UTC day.
        const onDay = (id: string, day: string) => api.request("GET", `/v1/transactions/${id}?asOf=${day}`, { key: acme.key });
        const current = (await api.request("GET", `/v1/transactions/${capture.id}`, { key: acme.key })).body;
        expect((await onDay(capture.id, refund.updatedAt.slice(0, 10))).body).toEqual({ ...current, ...intact });
        const dayBefore = new Date(Date.parse(auth.createdAt) - 86_400_000).toISOString().slice(0, 10);
        expect((await onDay(auth.id, dayBefore)).status).toBe(404);
        const bad = await api.request("GET", `/v1/transactions/${auth.id}?asOf=yesterday`, { key: acme.key });
        expect(bad.status).toBe(400);
        expect(bad.body.errors).toEqual([expect.objectContaining({ path: "asOf" })]);
      });
    });
  });
}
