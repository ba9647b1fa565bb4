import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateMasterKey } from "../../src/crypto/secrets.ts";
import { paymentStreamId } from "../../src/domain/payments/index.ts";
import { testEnvironment } from "../support/environment.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard, type RecordedPayments, recordPayments } from "../support/payments.ts";
import { runInTerminal, runProcess } from "../support/process.ts";
import { startTestService, type TestService, testSecrets } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));

// The CLI runs in a process of its own next to the service: that needs a server, not PGlite.
// Each run starts a process (a few seconds on a busy machine), so the tests run few.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set";
if (skipReason) console.warn(`SKIPPED ledger CLI test: ${skipReason}`);

describe.skipIf(skipReason)("the ledger CLI, as a process next to the running service", { timeout: 60_000 }, () => {
  let api: TestService;
  let payments: RecordedPayments;

  /** Runs `npm run ledger -- <args>` as the script does, on the service's database. */
  function run(...args: string[]) {
    return runProcess(ledger, args, { DATABASE_URL: api.database.url!, EVENTSTORE_URL: "", DATA_DIR: "memory://" });
  }

  const rowsOf = async (table: "transactions" | "payments") =>
    (await sql`select * from ${sql.table(table)} order by 1`.execute(api.database.db)).rows;

  beforeAll(async () => {
    api = await startTestService("postgres");
    payments = await recordPayments(api);
  });
  afterAll(() => api?.stop());

  it("export writes the log as NDJSON, one event per line as GET /v1/events gives it, and resumes after a cursor", async () => {
    const before = await api.request("GET", "/v1/events?limit=100");
    expect(before.body.nextCursor).not.toBeNull();
    const firstPage = await api.request("GET", "/v1/events?limit=3");
    const [exported, rest] = await Promise.all([run("export"), run("export", "--after", firstPage.body.nextCursor)]);
    // The service may still append after its answers (CI once saw one event more in the export
    // than in the read before it): each export holds at least what the log held before it, in
    // the API's order, event for event, and resumes where it stopped.
    const after = await api.request("GET", "/v1/events?limit=100");
    expect(exported.code, exported.stderr).toBe(0);
    const lines = exported.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(before.body.data.length);
    expect(lines.map((line) => JSON.parse(line))).toEqual(after.body.data.slice(0, lines.length));
    const resumeAt = (await api.request("GET", `/v1/events?limit=${lines.length}`)).body.nextCursor;
    expect(exported.stderr).toContain(`exported ${lines.length} events; resume with --after ${resumeAt}`);

    expect(rest.code, rest.stderr).toBe(0);
    const restLines = rest.stdout.trimEnd().split("\n");
    expect(restLines.length).toBeGreaterThanOrEqual(before.body.data.length - 3);
    expect(restLines.map((line) => JSON.parse(line))).toEqual(after.body.data.slice(3, 3 + restLines.length));
  });

  it("replay prints the payment's timeline: each event with the state it leaves", async () => {
    const unknownId = "0190a8e2-7c3b-7def-8a12-000000000000";
    const [replayed, unknown] = await Promise.all([run("replay", payments.refund), run("replay", unknownId)]);
    expect(replayed.code, replayed.stderr).toBe(0);
    const lines = replayed.stdout.trimEnd().split("\n");
    const { authorization, capture, refund } = payments;
    const by = `client key ${payments.keyIds[0]}`;
    const row = (...cells: string[]) => new RegExp(`^${cells.join("\\s+")}$`);
    const time = "\\S+Z";
    expect(lines[0]).toBe(`${paymentStreamId(authorization)}: 6 events`);
    expect(lines[1]).toMatch(row("rev", "occurred at", "event", "by", "transaction", "amount", "status", "state", "captured", "refunded"));
    expect(lines.slice(2)).toEqual([
      expect.stringMatching(row("0", time, "TransactionInitiated.v1", by, `authorization ${authorization}`, "1000 USD", "pending", "pending", "0", "0")),
      expect.stringMatching(row("1", time, "TransactionApproved.v1", by, `authorization ${authorization}`, "1000 USD", "approved", "authorized", "0", "0")),
      expect.stringMatching(row("2", time, "TransactionInitiated.v1", by, `capture ${capture}`, "600 USD", "pending", "pending", "0", "0")),
      expect.stringMatching(row("", `↳ authorization ${authorization}`, "1000 USD", "approved", "authorized", "0", "0")),
      expect.stringMatching(row("3", time, "TransactionApproved.v1", by, `capture ${capture}`, "600 USD", "approved", "succeeded", "600", "0")),
      expect.stringMatching(row("", `↳ authorization ${authorization}`, "1000 USD", "approved", "partially_captured", "600", "0")),
      expect.stringMatching(row("4", time, "TransactionInitiated.v1", by, `refund ${refund}`, "200 USD", "pending", "pending", "0", "0")),
      expect.stringMatching(row("", `↳ capture ${capture}`, "600 USD", "approved", "succeeded", "600", "0")),
      expect.stringMatching(row("5", time, "TransactionApproved.v1", by, `refund ${refund}`, "200 USD", "approved", "succeeded", "0", "0")),
      expect.stringMatching(row("", `↳ capture ${capture}`, "600 USD", "approved", "partially_refunded", "600", "200")),
    ]);

    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`no payment holds transaction ${unknownId}`);
  });

  it("draws its progress to 100 % on a terminal", async () => {
    const rebuilt = await runInTerminal(ledger, ["rebuild", "clients"], {
      DATABASE_URL: api.database.url!,
      EVENTSTORE_URL: "",
      DATA_DIR: "memory://",
    });
    expect(rebuilt.code, rebuilt.stdout).toBe(0);
    expect(rebuilt.stdout).toMatch(/rebuild clients \[█+\] 100% \| \d+ events/);
  });

  it("rebuild replays a read model while the service serves it, and the rebuilt one equals the previous one", async () => {
    const before = { transactions: await rowsOf("transactions"), payments: await rowsOf("payments") };
    const rebuilt = await run("rebuild", "transactions");
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toMatch(/^rebuilt transactions: 10 events in \d+\.\d s, \d+ events\/s\n$/);
    expect({ transactions: await rowsOf("transactions"), payments: await rowsOf("payments") }).toEqual(before);
    const served = await api.request("GET", `/v1/transactions/${payments.capture}`);
    expect(served.body).toMatchObject({ status: "approved", refundedAmount: 200 });
  });

  it("verify exits 0 on an intact log whose read models equal a replay, and 1 naming the stream edited in SQL", async () => {
    const clean = await run("verify");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toContain("0 tampered");
    expect(clean.stdout).toContain("read model transactions: equal to a fresh replay");
    expect(clean.stdout.trimEnd().split("\n").at(-1)).toBe("verify: ok");

    const stream = paymentStreamId(payments.authorization);
    const setCaptureAmount = (amount: number) =>
      sql`update events set data = jsonb_set(data, '{amount}', ${String(amount)}::jsonb)
          where stream_id = ${stream} and revision = 2`.execute(api.database.db);
    await setCaptureAmount(1);
    try {
      const tampered = await run("verify");
      expect(tampered.code).toBe(1);
      expect(tampered.stdout).toContain(`1 tampered\n  TAMPERED ${stream}\n    - revision 2 does not match its hash (edited)\n`);
      expect(tampered.stdout.match(/TAMPERED/g)).toHaveLength(1);
      // The edited log no longer replays into the read model the service built from the original.
      expect(tampered.stdout).toContain("read model transactions: DIFFERENT from a fresh replay");
      // The capture's row is on both sides: named as changed, with each field that differs and both values.
      expect(tampered.stdout).toContain(`changed:     {"transaction_id":"${payments.capture}"}\n`);
      expect(tampered.stdout).toMatch(/^ {6}amount: live 600, replay 1$/m);
      expect(tampered.stdout).toMatch(/^ {6}view\.amount: live 600, replay 1$/m);
      expect(tampered.stdout).not.toContain(`live only:   {"transaction_id":"${payments.capture}"}`);
      // So does the journal: the capture's entry posted 600, a replay posts 1.
      expect(tampered.stdout).toContain("read model journal: DIFFERENT from a fresh replay");
      expect(tampered.stdout).toContain("read model clients: equal to a fresh replay");
      expect(tampered.stdout.trimEnd().split("\n").at(-1)).toBe("verify: 3 problems found");
    } finally {
      await setCaptureAmount(600);
    }
  });

  it("settlements prints a day's batches with their reconciliation status, and exits 1 when one is mismatched", async () => {
    const { rows } = await sql<{ id: string }>`
      select host_configuration_id as id from host_configurations where processor = 'processor_a' order by created_at limit 1`.execute(
      api.database.db,
    );
    const closed = await api.request("POST", `/v1/host-configurations/processor_a/${rows[0]!.id}/settle`, { body: {} });
    expect(closed.status).toBe(201);
    await vi.waitFor(async () => expect((await api.request("GET", `/v1/settlements/${closed.body.id}`)).status).toBe(200));
    const day = String(closed.body.closedAt).slice(0, 10);
    const matched = await run("settlements", "--date", day);
    expect(matched.code, matched.stderr).toBe(0);
    expect(matched.stdout).toContain(`1 settlement batch opened on ${day}, 0 mismatched`);
    expect(matched.stdout).toContain(closed.body.id);
    // Piped, as here: plain text. Colours only at a terminal, and not there either with NO_COLOR.
    const escape = "\x1b[";
    expect(matched.stdout).not.toContain(escape);
    const connection = { DATABASE_URL: api.database.url!, EVENTSTORE_URL: "", DATA_DIR: "memory://" };
    const [atTerminal, noColour] = await Promise.all([
      // FORCE_COLOR: the table's colour library turns colours off under CI=true, terminal or not.
      runInTerminal(ledger, ["settlements", "--date", day], { ...connection, NO_COLOR: "", FORCE_COLOR: "1" }),
      runInTerminal(ledger, ["settlements", "--date", day], { ...connection, NO_COLOR: "1" }),
    ]);
    expect(atTerminal.stdout).toContain(closed.body.id);
    expect(atTerminal.stdout).toContain(escape);
    expect(noColour.stdout).toContain(closed.body.id);
    expect(noColour.stdout).not.toContain(escape);
    await sql`update settlements set status = 'mismatched' where settlement_id = ${closed.body.id}`.execute(api.database.db);
    try {
      const mismatched = await run("settlements", "--date", day);
      expect(mismatched.code).toBe(1);
      expect(mismatched.stdout).toContain(`1 settlement batch opened on ${day}, 1 mismatched`);
    } finally {
      await sql`update settlements set status = 'matched' where settlement_id = ${closed.body.id}`.execute(api.database.db);
    }
  });

  // Last: the batch it settles would be a second one of the day for the settlements test above.
  it("replay names who recorded each event: the client's key, the service's own job, the admin", async () => {
    const client = await api.createClient("Initech");
    const configured = await api.request("POST", "/v1/host-configurations/processor_a", {
      body: { ...validBodies.processor_a, clientId: client.clientId },
    });
    expect(configured.status).toBe(201);
    // The simulator keeps this card's answer past the timeout: the pending resolver records the approval.
    const sale = await api.request("POST", "/v1/transactions/sale", {
      key: client.key,
      body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u", card: { ...approvedCard, number: "4000000000000408" } },
    });
    expect(sale.status).toBe(504);
    const saleId: string = sale.body.transaction.id;
    const read = () => api.request("GET", `/v1/transactions/${saleId}`, { key: client.key });
    await vi.waitFor(async () => expect((await read()).body.status).toBe("approved"), { timeout: 10_000, interval: 100 });
    const settled = await api.request("POST", `/v1/host-configurations/processor_a/${configured.body.id}/settle`, { body: {} });
    expect(settled.status).toBe(201);
    await vi.waitFor(async () => expect((await read()).body.settledAt).not.toBeNull(), { timeout: 10_000, interval: 100 });

    const replayed = await run("replay", saleId);
    expect(replayed.code, replayed.stderr).toBe(0);
    const recorders = replayed.stdout
      .trimEnd()
      .split("\n")
      .slice(2)
      .map((line) => /^\d+\s+\S+Z\s+(\S+)\s+(admin|service|client key \S+)\s+sale /.exec(line)?.slice(1));
    expect(recorders).toEqual([
      ["TransactionInitiated.v1", `client key ${client.keyId}`],
      ["TransactionApproved.v1", "service"],
      ["TransactionSettled.v1", "admin"],
    ]);
  });
  it("rewrap-keys wraps every payment method's data key under the active master key, and back, events untouched", async () => {
    const shop = await api.createClient("Vaulted");
    await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: shop.clientId } });
    const method = await api.request("POST", "/v1/payment-methods", {
      key: shop.key,
      body: { card: { number: "4242424242424242", expMonth: 12, expYear: 2030 }, userId: "u1" },
    });
    const eventsBefore = (await sql`select count(*)::int as count from events`.execute(api.database.db)).rows;
    const next = `next:${generateMasterKey()}`;
    const withKeys = (keys: string) =>
      runProcess(ledger, ["rewrap-keys"], { DATABASE_URL: api.database.url!, EVENTSTORE_URL: "", DATA_DIR: "memory://", SECRETS_MASTER_KEYS: keys });

    const forward = await withKeys(`${testSecrets.SECRETS_MASTER_KEYS},${next}`);
    expect(forward.code, forward.stderr).toBe(0);
    expect(forward.stderr).toMatch(/rewrapped \d+ data keys? under master key next; 0 data keys left under other master keys/);
    const wrappers = () => api.database.db.selectFrom("payment_method_keys").select("master_key_id").distinct().execute();
    expect(await wrappers()).toEqual([{ master_key_id: "next" }]);

    // The running service knows only the test key: make it the active one again, and pay.
    const back = await withKeys(`${next},${testSecrets.SECRETS_MASTER_KEYS}`);
    expect(back.code, back.stderr).toBe(0);
    expect(await wrappers()).toEqual([{ master_key_id: "test" }]);
    expect((await sql`select count(*)::int as count from events`.execute(api.database.db)).rows).toEqual(eventsBefore);
    const sale = await api.request("POST", "/v1/transactions/sale", {
      key: shop.key,
      body: { processor: "processor_a", amount: 100, currency: "USD", userId: "u1", paymentMethodId: method.body.id },
    });
    expect(sale.status, sale.text).toBe(201);
  });
});
