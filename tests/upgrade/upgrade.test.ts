import { readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStoredKeys } from "../../src/crypto/fingerprint-key-store.ts";
import { createSecretBox, parseMasterKeys } from "../../src/crypto/secrets.ts";
import type { Database } from "../../src/db/schema.ts";
import { decryptNumbers, known, type KnownRequest, keysIn, searchNumbers } from "../support/card-attacker.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { createEmptyPostgresDatabase } from "../support/postgres-databases.ts";
import { validBodies } from "../support/host-configurations.ts";
import { runProcess, type ServiceProcess, startServiceProcess, stopProcess } from "../support/process.ts";
import { type ApiResponse, apiRequest, type Json, type RequestOptions, TEST_ADMIN_KEY } from "../support/service.ts";
import { everythingStored } from "../support/stored-text.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { checkOutRelease, previousRelease, recordedReleases, type ReleaseTree, unavailableBecause } from "./previous-release.ts";

// Upgrades keep data: the previous release (releases.json) takes payments of every kind on a fresh
// database, stops, and this commit starts on the same data with no manual step; every earlier
// transaction reads as it did, `ledger verify` agrees (hash chains and read models), and new
// payments work on the old ones. EventStoreDB is not covered: it cannot run in CI.

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));
const release = previousRelease();
const unavailable = await unavailableBecause(release.commit);
const UPGRADE_TIMEOUT_MS = 180_000;

const card = (number: string) => ({ number, expMonth: 12, expYear: 2030, cvc: "123" });
const APPROVED = "4242424242424242";
const DECLINED = "4000000000000002";
/** The simulator approves it but holds the answer back for 30 s: the payment is in flight. */
const HELD = "4000000000000408";
const inline = (amount: number, number = APPROVED) => ({ processor: "processor_a", amount, currency: "USD", userId: "u1", card: card(number) });

/** Twelve hours from now, as a host configuration's daily settlementTime in UTC: no batch falls due by itself during the test. */
function settlementTimeFarFromNow(): string {
  return new Date(Date.now() + 12 * 3_600_000).toISOString().slice(11, 16);
}

/**
 * What this commit serves of what an earlier release served: no BIN beside a fingerprint, and no
 * fingerprint on a payment by a stored card (API.md). Stored events are served as they were written.
 */
function servedNow(value: Json): Json {
  if (Array.isArray(value)) return value.map(servedNow);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([key, item]) => [key, key === "events" || key === "log" ? item : servedNow(item)]);
  const object = Object.fromEntries(entries);
  if (object.card && typeof object.card === "object") {
    const { bin: _bin, fingerprint, ...card } = object.card;
    object.card = object.paymentMethodId || fingerprint === undefined ? card : { ...card, fingerprint };
  }
  return object;
}

/** The database the service used, opened as it is (no migration run on it), while no service holds it. */
async function withStoredDatabase<T>(dataDir: string, databaseUrl: string, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const dialect = databaseUrl
    ? new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) })
    : new PGliteDialect(await PGlite.create(path.join(dataDir, "pglite")));
  const db = new Kysely<Database>({ dialect });
  try {
    return await read(db);
  } finally {
    await db.destroy();
  }
}

/** What an attacker copies: every row of the database, and the plain files at the top of the data directory. */
async function copyOfStores(dataDir: string, databaseUrl: string): Promise<{ rows: string; topFiles: string }> {
  const entries = await readdir(dataDir, { withFileTypes: true });
  const files = await Promise.all(entries.filter((entry) => entry.isFile()).map((entry) => readFile(path.join(dataDir, entry.name), "utf8")));
  return { rows: await withStoredDatabase(dataDir, databaseUrl, everythingStored), topFiles: files.join("\n") };
}

const versionNumbers = (version: string) => version.split(".").map(Number);
const isBefore = (a: string, b: string) => {
  const [x, y] = [versionNumbers(a), versionNumbers(b)];
  const differs = x.findIndex((part, index) => part !== y[index]);
  return differs !== -1 && x[differs]! < y[differs]!;
};

describe("release names", () => {
  it("releases.json lists releases oldest first, and package.json names the next one", () => {
    const versions = recordedReleases().map((recorded) => recorded.version);
    const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
    versions.slice(1).forEach((later, index) => expect(isBefore(versions[index]!, later), `${versions[index]} before ${later}`).toBe(true));
    expect(isBefore(versions.at(-1)!, version), `package.json ${version} after ${versions.at(-1)}`).toBe(true);
  });
});

if (unavailable) {
  console.warn(`SKIPPED upgrade from release ${release.version}: ${unavailable}`);
  describe.skip(`upgrade from release ${release.version} (skipped: ${unavailable})`, () => {
    it("starts this commit on the previous release's data", () => {});
  });
} else {
  // One tree of the release serves both databases: extracting it and installing its packages takes
  // seconds of CPU.
  let tree: ReleaseTree;
  beforeAll(async () => {
    tree = await checkOutRelease(release.commit);
  }, UPGRADE_TIMEOUT_MS);
  afterAll(() => tree?.remove());

  for (const target of testDatabaseTargets()) {
    describe(`upgrade from release ${release.version} (${release.commit.slice(0, 10)}) to this commit, on ${target}`, () => {
      let dataDir: string;
      let dropDatabase: (() => Promise<void>) | undefined;
      let receiver: WebhookReceiver;
      let environment: Record<string, string>;
      let service: ServiceProcess | undefined;

      beforeAll(async () => {
        dataDir = await mkdtemp(path.join(tmpdir(), "ledger-upgrade-data-"));
        let databaseUrl = "";
        if (target === "postgres") {
          const database = await createEmptyPostgresDatabase();
          databaseUrl = database.url;
          dropDatabase = database.drop;
        }
        receiver = await startWebhookReceiver(200);
        // What an operator keeps across an upgrade: the data directory (the embedded database, the
        // simulator's ledger, the generated master and fingerprint keys) and the database URL.
        environment = {
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          EVENTSTORE_URL: "",
          ADMIN_API_KEY: TEST_ADMIN_KEY,
          WEBHOOK_ALLOW_HTTP: "true",
          WEBHOOK_ALLOW_PRIVATE: "true",
          WEBHOOK_DISPATCH_INTERVAL_MS: "50",
          WEBHOOK_RETRY_BASE_MS: "20",
          // A held answer times out well before the simulator sends it; nothing else comes near.
          PROCESSOR_TIMEOUT_MS: "5000",
          PENDING_RESOLVER_INTERVAL_MS: "200",
          // On a loaded machine a cold start keeps the loop busy for seconds (the embedded database
          // runs on it), and shedding would answer this test's reads 503: not what it is about.
          MAX_EVENT_LOOP_DELAY_MS: "0",
        };
      }, UPGRADE_TIMEOUT_MS);
      afterAll(async () => {
        if (service) await stopProcess(service.child);
        await receiver?.close();
        await dropDatabase?.();
        if (dataDir) await rm(dataDir, { recursive: true, force: true });
      });

      const call = (method: string, requestPath: string, options?: RequestOptions): Promise<ApiResponse> =>
        apiRequest(service!.url, method, `/v1${requestPath}`, options);
      const expectStatus = async (status: number, response: Promise<ApiResponse>): Promise<Json> => {
        const answer = await response;
        expect(answer.status, answer.text).toBe(status);
        return answer.body;
      };

      // What the previous release made, and its answers, for the checks after the upgrade.
      let client: { id: string; key: string };
      let hostConfigurationId: string;
      let endpointId: string;
      let paymentMethodId: string;
      const made: Record<string, string> = {};
      /** A sale whose outcome was unknown when the previous release stopped. */
      let inFlight: string;
      const keyedSale = { body: inline(1_099), idempotencyKey: "order-1001" };
      const vaultedCard = { card: { number: APPROVED, expMonth: 12, expYear: 2030 }, userId: "u1" };
      /** The requests an attacker knows the bodies of, but for the number: their Idempotency-Key records hashed them. */
      const knownRequests: KnownRequest[] = [
        { method: "POST", url: "/v1/transactions/sale", body: (number) => ({ ...keyedSale.body, card: card(number) }) },
        { method: "POST", url: "/v1/payment-methods", body: (number) => ({ ...vaultedCard, card: { ...vaultedCard.card, number } }) },
      ];
      let before: Awaited<ReturnType<typeof readEverything>>;

      const pay = (type: string, body: Json, idempotencyKey?: string) =>
        call("POST", `/transactions/${type}`, { key: client.key, body, headers: idempotencyKey ? { "idempotency-key": idempotencyKey } : {} });
      const approved = async (type: string, body: Json, idempotencyKey?: string): Promise<string> =>
        (await expectStatus(201, pay(type, body, idempotencyKey))).id as string;
      const settle = () => expectStatus(201, call("POST", `/host-configurations/processor_a/${hostConfigurationId}/settle`));

      /** Until every read model has the whole log and no webhook is owed: what the service shows then stays put. */
      async function quiet(): Promise<void> {
        const settled = async () => {
          const status = await expectStatus(200, call("GET", "/operations/status"));
          const caughtUp = (status.projections as Json[]).every((projection) => projection.positionsBehind === "0");
          return caughtUp && status.webhooks.pending === 0;
        };
        await expect.poll(settled, { timeout: 30_000, interval: 100 }).toBe(true);
      }

      /** Everything a client, the admin and an auditor read of what the previous release made. */
      async function readEverything() {
        const transactions: Record<string, { transaction: Json; events: Json }> = {};
        for (const [name, id] of Object.entries(made)) {
          transactions[name] = {
            transaction: await expectStatus(200, call("GET", `/transactions/${id}`, { key: client.key })),
            events: await expectStatus(200, call("GET", `/transactions/${id}/events`, { key: client.key })),
          };
        }
        const settlements = await expectStatus(200, call("GET", `/settlements?limit=100`, { key: client.key }));
        return {
          transactions,
          history: (await expectStatus(200, call("GET", "/transactions?limit=100", { key: client.key }))).data as Json[],
          limits: ((await expectStatus(200, call("GET", `/clients/${client.id}`, { key: client.key }))).limits as Json[]).map(
            // Today's usage starts again at midnight UTC, which a run may cross.
            ({ today: _today, ...limit }: Json) => limit,
          ),
          hostConfiguration: await expectStatus(200, call("GET", `/host-configurations/processor_a/${hostConfigurationId}`)),
          settlements: settlements.data as Json[],
          settled: await expectStatus(200, call("GET", `/settlements/${settlements.data[0].id}/transactions?limit=100`, { key: client.key })),
          paymentMethod: await expectStatus(200, call("GET", `/payment-methods/${paymentMethodId}`, { key: client.key })),
          endpoint: await expectStatus(200, call("GET", `/webhook-endpoints/${endpointId}`, { key: client.key })),
          deliveries: await expectStatus(200, call("GET", `/webhook-endpoints/${endpointId}/deliveries?limit=100`, { key: client.key })),
          log: await wholeLog(),
        };
      }

      async function wholeLog(): Promise<Json[]> {
        const events: Json[] = [];
        let cursor: string | null = null;
        do {
          const page = await expectStatus(200, call("GET", `/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`));
          events.push(...(page.data as Json[]));
          cursor = page.data.length > 0 ? page.nextCursor : null;
        } while (cursor);
        return events;
      }

      it(
        `release ${release.version} takes payments of every kind on a fresh database`,
        async () => {
          // Its resolver never comes round: the payment left pending is this commit's to resolve.
          service = await startServiceProcess({ ...environment, PENDING_RESOLVER_INTERVAL_MS: "3600000" }, { checkout: tree.dir });

          const created = await expectStatus(201, call("POST", "/clients", { body: { name: "Acme" } }));
          const issued = await expectStatus(201, call("POST", `/clients/${created.id}/api-keys`, { body: {} }));
          client = { id: created.id, key: issued.key };
          const settings = { ...(validBodies.processor_a.settings as object), settlementTime: settlementTimeFarFromNow(), timeZone: "UTC" };
          hostConfigurationId = (
            await expectStatus(201, call("POST", "/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.id, settings } }))
          ).id;
          await expectStatus(200, call("PUT", `/clients/${client.id}/limits`, { body: { limits: [{ currency: "USD", maxAmountPerTransaction: 100_000 }] } }));
          endpointId = (
            await expectStatus(201, call("POST", "/webhook-endpoints", { key: client.key, body: { url: `${receiver.url}/hooks`, events: ["*"] } }))
          ).id;
          paymentMethodId = (
            await expectStatus(
              201,
              call("POST", "/payment-methods", { key: client.key, body: vaultedCard, headers: { "idempotency-key": "vault-1" } }),
            )
          ).id;

          made.sale = await approved("sale", keyedSale.body, keyedSale.idempotencyKey);
          made.authorization = await approved("authorization", inline(5_000), "auth-1");
          made.partialCapture = await approved("capture", { transactionId: made.authorization, amount: 2_000 }, "capture-1");
          made.voidedAuthorization = await approved("authorization", inline(3_000));
          made.void = await approved("void", { transactionId: made.voidedAuthorization });
          made.refundedSale = await approved("sale", inline(4_000));
          made.refund = await approved("refund", { transactionId: made.refundedSale, amount: 1_500 });
          made.storedCardSale = await approved("sale", { processor: "processor_a", amount: 2_500, currency: "USD", userId: "u1", paymentMethodId, cvc: "123" });
          const declined = await expectStatus(402, pay("sale", inline(2_000, DECLINED)));
          made.declined = (declined.transaction ?? declined).id;
          const overLimit = await expectStatus(402, pay("sale", inline(150_000)));
          expect(overLimit.code).toBe("limit_exceeded");
          made.overLimit = overLimit.transaction.id;

          const held = await expectStatus(504, pay("sale", inline(900, HELD), "held-1"));
          expect(held.transaction.status).toBe("pending");
          inFlight = held.transaction.id;

          const batch = await settle();
          expect(batch.status).toBe("matched");

          // Made after the batch, so still open to a void or a capture in the next release.
          made.unsettledSale = await approved("sale", inline(1_200));
          made.openAuthorization = await approved("authorization", inline(7_000));

          await quiet();
          before = await readEverything();
          expect(before.transactions.sale!.transaction.settlementId).toBe(batch.id);
          expect(before.transactions.authorization!.transaction.state).toBe("partially_captured");
          expect(before.transactions.overLimit!.transaction).toMatchObject({ status: "declined", declineCode: "limit_exceeded" });

          expect(await stopProcess(service.child)).toBe(0);
          service = undefined;
        },
        UPGRADE_TIMEOUT_MS,
      );

      it(
          `release ${release.version}'s data gives its cards away to whoever copies it: the search this commit's attacker test makes`,
        async () => {
          // The BIN and last four beside a fingerprint whose key lies in DATA_DIR: ~10^5 HMACs.
          const { rows, topFiles } = await copyOfStores(dataDir, environment.DATABASE_URL!);
          expect(searchNumbers(rows, [known(APPROVED, knownRequests)], keysIn(topFiles))).toEqual([APPROVED]);
        },
        UPGRADE_TIMEOUT_MS,
      );

      it(
        "this commit starts on the same data and serves everything as the previous release did",
        async () => {
          service = await startServiceProcess(environment);
          await quiet();
          // The sale left in flight is resolved by now or soon: it is left out here, and the log
          // and the webhook log may have grown by its outcome.
          const { log, history, deliveries, ...after } = await readEverything();
          const { log: logBefore, history: historyBefore, deliveries: deliveriesBefore, ...rest } = servedNow(before);
          const settledDown = (transactions: Json[]) => transactions.filter((transaction) => transaction.id !== inFlight);
          const attemptIds = new Set((deliveriesBefore.data as Json[]).map((attempt) => attempt.id));
          // A newer release may add fields, never change or drop one.
          expect(after).toMatchObject(rest);
          expect(settledDown(history)).toMatchObject(settledDown(historyBefore));
          expect(log.slice(0, logBefore.length)).toMatchObject(logBefore);
          expect((deliveries.data as Json[]).filter((attempt) => attemptIds.has(attempt.id))).toMatchObject(deliveriesBefore.data);
        },
        UPGRADE_TIMEOUT_MS,
      );

      it(
        "new payments work on the old data: follow-ups of old payments, a replayed key, the stored card, limits, a batch, webhooks",
        async () => {
          const read = (id: string) => expectStatus(200, call("GET", `/transactions/${id}`, { key: client.key }));
          await expect.poll(async () => (await read(inFlight)).status, { timeout: 30_000, interval: 200 }).toBe("approved");
          const heldRetry = await pay("sale", inline(900, HELD), "held-1");
          expect(heldRetry.status, heldRetry.text).toBe(201);
          expect(heldRetry.body.id).toBe(inFlight);

          const replay = await pay("sale", keyedSale.body, keyedSale.idempotencyKey);
          expect(replay.status, replay.text).toBe(201);
          expect(replay.headers.get("idempotent-replayed")).toBe("true");
          // A key belongs to its transaction for good: the replay answers the sale as it stands (settled since).
          expect(replay.body).toMatchObject(servedNow(before.transactions.sale!.transaction));

          const finalCapture = await approved("capture", { transactionId: made.authorization, amount: 1_000, final: true });
          await approved("refund", { transactionId: made.sale, amount: 500 });
          await approved("refund", { transactionId: made.partialCapture });
          await approved("void", { transactionId: made.unsettledSale });
          await approved("capture", { transactionId: made.openAuthorization });
          const storedCardSale = await approved("sale", { processor: "processor_a", amount: 800, currency: "USD", userId: "u1", paymentMethodId, cvc: "123" });
          const overLimit = await expectStatus(402, pay("sale", inline(150_000)));
          expect(overLimit.code).toBe("limit_exceeded");

          expect(await read(made.authorization!)).toMatchObject({ state: "captured", capturedAmount: 3_000, voided: true });
          expect(await read(made.sale!)).toMatchObject({ state: "partially_refunded", refundedAmount: 500 });
          expect(await read(made.partialCapture!)).toMatchObject({ state: "refunded", refundedAmount: 2_000 });
          expect(await read(made.unsettledSale!)).toMatchObject({ state: "voided" });
          expect(await read(made.openAuthorization!)).toMatchObject({ state: "captured", capturedAmount: 7_000 });
          expect(await read(storedCardSale)).toMatchObject({ paymentMethodId, card: { last4: "4242" } });
          expect((await read(finalCapture)).state).toBe("succeeded");

          const batch = await settle();
          // The sale resolved, the final capture, the two refunds, the capture of the open authorization, the stored-card sale.
          expect(batch).toMatchObject({ status: "matched", transactionCount: 6 });

          // The endpoint made by the previous release gets the new messages, and nothing it was
          // sent before the upgrade comes again.
          await receiver.waitFor((requests) => requests.some((request) => request.body.includes(storedCardSale)), { path: "/hooks" });
          await quiet();
          const again = receiver.at("/hooks").filter((request) => request.nth > 1);
          expect(again.map((request) => request.headers["webhook-id"])).toEqual([]);
        },
        UPGRADE_TIMEOUT_MS,
      );

      it(
        "ledger verify agrees with no manual step: every hash chain, every read model equal to a replay",
        async () => {
          // The embedded database opens in one process at a time: the service goes first.
          expect(await stopProcess(service!.child)).toBe(0);
          service = undefined;
          const verified = await runProcess(ledger, ["verify"], { DATA_DIR: environment.DATA_DIR!, DATABASE_URL: environment.DATABASE_URL!, EVENTSTORE_URL: "" });
          expect(verified.code, `${verified.stdout}\n${verified.stderr}`).toBe(0);
          expect(verified.stdout.trimEnd().split("\n").at(-1)).toBe("verify: ok");
        },
        UPGRADE_TIMEOUT_MS,
      );

      it(
        "ledger fingerprint-key rotate --destroy-previous makes the earlier release's data safe: no deleted card comes back, even with every key left",
        async () => {
          service = await startServiceProcess(environment);
          await expectStatus(204, call("DELETE", `/payment-methods/${paymentMethodId}`, { key: client.key }));
          expect(await stopProcess(service.child)).toBe(0);
          service = undefined;
          const stores = { DATA_DIR: environment.DATA_DIR!, DATABASE_URL: environment.DATABASE_URL!, EVENTSTORE_URL: "" };
          const rotated = await runProcess(ledger, ["fingerprint-key", "rotate", "--destroy-previous"], stores);
          expect(rotated.code, rotated.stderr).toBe(0);
          expect(rotated.stderr).toMatch(/fingerprint key 2 made.*destroyed: 1/);

          const { rows, topFiles } = await copyOfStores(dataDir, environment.DATABASE_URL!);
          // Every key that survives: the master keys this deployment generated into DATA_DIR (as
          // outside production it may), what they decrypt, and anything key-like in DATA_DIR.
          const masterKeys = createSecretBox(parseMasterKeys(topFiles.match(/generated:[A-Za-z0-9+/=]+/)![0]));
          const fingerprintKeys = await withStoredDatabase(dataDir, environment.DATABASE_URL!, (db) => openStoredKeys(db, masterKeys));
          expect([...fingerprintKeys.keys.keys()]).toEqual(["2"]);
          expect(topFiles).not.toMatch(/card-fingerprint-key/);
          const everyKey = [...fingerprintKeys.keys.values(), ...keysIn(topFiles)];
          expect(decryptNumbers(rows, masterKeys)).toEqual([]);
          expect(searchNumbers(rows, [known(APPROVED, knownRequests)], everyKey)).toEqual([]);
        },
        UPGRADE_TIMEOUT_MS,
      );
    });
  }
}
