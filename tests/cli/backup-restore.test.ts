import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type Kysely, sql } from "kysely";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { backup, restore } from "../../src/cli/backup.ts";
import { type Ledger, withLedger } from "../../src/cli/connection.ts";
import { exportLog } from "../../src/cli/export.ts";
import { replay } from "../../src/cli/replay.ts";
import { printSettlements } from "../../src/cli/settlements.ts";
import { verify } from "../../src/cli/verify.ts";
import type { Config } from "../../src/config.ts";
import { openStoredKeys } from "../../src/crypto/fingerprint-key-store.ts";
import { createSecretBox, parseMasterKeys } from "../../src/crypto/secrets.ts";
import { ProcessLockHeldError } from "../../src/db/process-lock.ts";
import type { Database } from "../../src/db/schema.ts";
import { projections } from "../../src/projections/all.ts";
import { decryptNumbers, filesUnder, known, searchNumbers } from "../support/card-attacker.ts";
import { testEnvironment } from "../support/environment.ts";
import { validBodies } from "../support/host-configurations.ts";
import { createPostgresDatabase } from "../support/postgres-databases.ts";
import { runProcess, type ServiceProcess, startServiceProcess, stopProcess } from "../support/process.ts";
import { type ApiResponse, apiRequest, startTestService, TEST_ADMIN_KEY, testConfig, type TestService, testSecrets } from "../support/service.ts";

const ledgerBin = fileURLToPath(new URL("../../bin/ledger.js", import.meta.url));
const expiry = { expMonth: 12, expYear: 2030 };
const DELETED = "4000056655665556";
const KEPT = "6011111111111117";
const card = { number: "4242424242424242", ...expiry, cvc: "123" };
const sale = { processor: "processor_a", currency: "USD", userId: "u2", amount: 100, card };
/** What a restore must reproduce (every other table is compared too): each must hold rows. */
const MUST_HOLD = ["events", "transactions", "payment_methods", "settlements", "webhook_endpoints"];

type Call = (method: string, route: string, key: string, body?: object) => Promise<ApiResponse>;

/** A client with every kind of record: payments, a stored card kept and one deleted, a webhook endpoint, a settled batch. */
async function recordEverything(call: Call): Promise<{ key: string }> {
  const client = await call("POST", "/v1/clients", TEST_ADMIN_KEY, { name: "Acme" });
  const { key } = (await call("POST", `/v1/clients/${client.body.id}/api-keys`, TEST_ADMIN_KEY, {})).body;
  const configuration = await call("POST", "/v1/host-configurations/processor_a", TEST_ADMIN_KEY, { ...validBodies.processor_a, clientId: client.body.id });
  expect(configuration.status).toBe(201);
  const payment = { processor: "processor_a", currency: "USD", userId: "u1" };
  const authorization = await call("POST", "/v1/transactions/authorization", key, { ...payment, amount: 1000, card });
  expect(authorization.status).toBe(201);
  expect((await call("POST", "/v1/transactions/capture", key, { transactionId: authorization.body.id, amount: 600 })).status).toBe(201);
  const methods: string[] = [];
  for (const number of [DELETED, KEPT]) {
    const method = await call("POST", "/v1/payment-methods", key, { card: { number, ...expiry }, userId: "u1" });
    expect(method.status).toBe(201);
    expect((await call("POST", "/v1/transactions/sale", key, { ...payment, amount: 500, paymentMethodId: method.body.id, cvc: "123" })).status).toBe(201);
    methods.push(method.body.id);
  }
  expect((await call("DELETE", `/v1/payment-methods/${methods[0]}`, key)).status).toBe(204);
  expect((await call("POST", "/v1/webhook-endpoints", key, { url: "https://hooks.example.com/ledger", events: ["*"] })).status).toBe(201);
  expect((await call("POST", `/v1/host-configurations/processor_a/${configuration.body.id}/settle`, TEST_ADMIN_KEY)).status).toBeLessThan(300);
  return { key };
}

/** Every table but the migrations' own, each row as JSON text, in a stable order. */
async function tablesOf(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_migration%' order by 1
  `.execute(db);
  const tables: Record<string, string[]> = {};
  for (const { name } of rows) {
    const result = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(name)} t`.execute(db);
    tables[name] = comparable(result.rows.map((row) => row.row));
  }
  return tables;
}

/** A lease names the process that holds it and is renewed as it runs: not data. */
const comparable = (rows: string[]) => rows.map((row) => row.replace(/"(owner|lease_expires_at|updated_at)":[^,}]*/g, "")).sort();

/** The rows a backup holds, as tablesOf gives them (both are row_to_json). */
async function tablesInBackup(dir: string): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const file of (await readdir(path.join(dir, "tables"))).sort()) {
    const text = await readFile(path.join(dir, "tables", file), "utf8");
    tables[file.replace(/\.ndjson$/, "")] = comparable(text.split("\n").filter((line) => line !== ""));
  }
  return tables;
}

/** An attacker holding the restored database, the backup's files and the master keys gets the kept card back, never the deleted one. */
async function expectDeletedCardGone(db: Kysely<Database>, files: string): Promise<void> {
  const masterKeys = createSecretBox(parseMasterKeys(testSecrets.SECRETS_MASTER_KEYS));
  const { everythingStored } = await import("../support/stored-text.ts");
  const copy = `${await everythingStored(db)}\n${files}`;
  expect([...new Set(decryptNumbers(copy, masterKeys))]).toEqual([KEPT]);
  // With CARD_FINGERPRINT_KEY given (testSecrets), no fingerprint key is stored: the given one is tried.
  const stored = await openStoredKeys(db, masterKeys).catch(() => undefined);
  const fingerprintKeys = [...(stored?.keys.values() ?? []), Buffer.from(testSecrets.CARD_FINGERPRINT_KEY, "base64")];
  expect(searchNumbers(copy, [known(DELETED)], fingerprintKeys)).toEqual([]);
}

/** What `work` writes to stdout, kept from the test's output, and its result. */
async function stdoutOf(work: () => Promise<number>): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    return { code: await work(), stdout };
  } finally {
    write.mockRestore();
  }
}

const verifyQuietly = (ledger: Ledger) => stdoutOf(() => verify(ledger, projections, { limit: 20, settleSeconds: 5 }));
const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);

/** A DATA_DIR holding the migrated database the run's global setup made: no initdb, no migration to wait for. */
async function migratedDataDir(dataDir: string): Promise<string> {
  const dump = new Blob([await readFile(inject("migratedPgliteDump"))]);
  await mkdir(dataDir, { recursive: true });
  await (await PGlite.create(path.join(dataDir, "pglite"), { loadDataDir: dump })).close();
  return dataDir;
}

/** The configuration the CLI reads from an environment of the embedded default in `dataDir`. */
const embedded = (dataDir: string): Config => testConfig(undefined, { DATA_DIR: dataDir });

/** Backs `source` up into a new folder, restores that into `target`, verifies the restore and compares every table with `source`. */
async function backupAndRestore(source: Config, target: Config, folder: string): Promise<void> {
  const backupDir = path.join(folder, "backup");
  await withLedger(
    source,
    async (ledger) => {
      const backedUp = await stdoutOf(() => backup(ledger, source.dataDir, backupDir));
      expect(backedUp.stdout).toContain(`into ${backupDir}`);
      // On the embedded default the command works on a copy that stands still: the backup holds all of it.
      // A running service moves PostgreSQL on (webhook attempts); there the backup's one transaction is its moment.
      if (source.databaseUrl === undefined) expect(await tablesInBackup(backupDir)).toEqual(await tablesOf(ledger.db));
    },
    { access: "read" },
  );
  const before = await tablesInBackup(backupDir);
  for (const table of MUST_HOLD) expect(before[table]?.length, table).toBeGreaterThan(0);
  await withLedger(target, (ledger) => stdoutOf(() => restore(ledger, target.dataDir, backupDir)));
  await withLedger(target, async (ledger) => {
    const verified = await verifyQuietly(ledger);
    expect(verified.code, verified.stdout).toBe(0);
    expect(lastLine(verified.stdout)).toBe("verify: ok");
    // Verify replays into scratch tables of their own schemas: the restored ones are as backed up.
    expect(await tablesOf(ledger.db)).toEqual(before);
    const dataDir = target.dataDir.startsWith("memory://") ? "" : `\n${await filesUnder(target.dataDir)}`;
    await expectDeletedCardGone(ledger.db, `${await filesUnder(backupDir)}${dataDir}`);
  });
}

describe("the embedded default: auditing and backup while the service runs", { timeout: 180_000 }, () => {
  let folder: string;
  let dataDir: string;
  let service: ServiceProcess;
  let call: Call;
  let key: string;

  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), "ledger-backup-"));
    dataDir = await migratedDataDir(path.join(folder, "data"));
    service = await startServiceProcess({ DATA_DIR: dataDir, EVENTSTORE_URL: "", ADMIN_API_KEY: TEST_ADMIN_KEY, ...testSecrets });
    call = (method, route, bearer, body) => apiRequest(service.url, method, route, { key: bearer, body });
    ({ key } = await recordEverything(call));
  });
  afterAll(async () => {
    if (service) await stopProcess(service.child);
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("verify (npx ledger), export, replay and settlements answer while payments go on; every sale meanwhile is 201", async () => {
    const statuses: number[] = [];
    let paying = true;
    const payments = (async () => {
      while (paying) {
        statuses.push((await call("POST", "/v1/transactions/sale", key, sale)).status);
        // A steady flow, not a flood that would starve the commands of the machine's two cores.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const first = await call("GET", "/v1/transactions?limit=1", key);
    const transactionId = first.body.data[0].id as string;
    const day = new Date().toISOString().slice(0, 10);
    const environment = { DATA_DIR: dataDir, DATABASE_URL: "", EVENTSTORE_URL: "", ...testSecrets };
    const [verified, inProcess] = await Promise.all([
      // The command as an auditor runs it, bin/ledger.js and all.
      runProcess(ledgerBin, ["verify"], environment),
      withLedger(
        embedded(dataDir),
        async (ledger) => ({
          exported: await stdoutOf(() => exportLog(ledger, null)),
          replayed: await stdoutOf(() => replay(ledger, transactionId)),
          settled: await stdoutOf(() => printSettlements(ledger, day, { colour: false })),
        }),
        { access: "read" },
      ),
    ]).finally(() => (paying = false));
    await payments;

    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stderr).toContain(`in use by process ${service.child.pid}`);
    expect(lastLine(verified.stdout)).toBe("verify: ok");
    const { exported, replayed, settled } = inProcess;
    expect(exported.code).toBe(0);
    expect(exported.stdout.split("\n").length).toBeGreaterThan(10);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(transactionId);
    expect(settled.code).toBe(0);
    expect(settled.stdout).toMatch(/1 settlement batch opened on/);

    // A command that writes is still refused, and the service serves on.
    await expect(withLedger(embedded(dataDir), async () => 0)).rejects.toThrow(ProcessLockHeldError);
    expect((await call("GET", "/v1/transactions?limit=1", key)).status).toBe(200);
  });

  it("ledger backup while it runs, ledger restore into a new DATA_DIR: every row back, verify passes, the deleted card stays gone", async () => {
    await backupAndRestore(embedded(dataDir), embedded(await migratedDataDir(path.join(folder, "restored"))), folder);
  });
});

const postgres = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set";
describe.skipIf(postgres)("PostgreSQL: pg_dump and pg_restore, ledger backup and restore, into new databases", { timeout: 120_000 }, () => {
  let api: TestService;
  let folder: string;
  const targets: { drop: () => Promise<void> }[] = [];
  beforeAll(async () => {
    api = await startTestService("postgres");
    await recordEverything((method, route, bearer, body) => api.request(method, route, { key: bearer, body }));
    folder = await mkdtemp(path.join(tmpdir(), "ledger-pgdump-"));
  });
  afterAll(async () => {
    await api?.stop();
    for (const target of targets) await target.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });
  const config = (url: string) => testConfig(url, { DATA_DIR: "memory://" });

  it("pg_dump, pg_restore: every row back, verify passes, the deleted card stays gone", async () => {
    const target = await createPostgresDatabase("template0");
    targets.push(target);
    const dump = path.join(folder, "ledger.dump");
    // The rows to find again are read in the snapshot pg_dump reads: the service moves on meanwhile.
    const before = await api.database.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        const { rows } = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        await promisify(execFile)("pg_dump", ["--format=custom", "--snapshot", rows[0]!.id, "--file", dump, api.database.url!]);
        return tablesOf(trx);
      });
    await promisify(execFile)("pg_restore", ["--no-owner", "--exit-on-error", "--dbname", target.url, dump]);
    for (const table of MUST_HOLD) expect(before[table]?.length, table).toBeGreaterThan(0);
    await withLedger(config(target.url), async (ledger) => {
      const verified = await verifyQuietly(ledger);
      expect(verified.code, verified.stdout).toBe(0);
      expect(await tablesOf(ledger.db)).toEqual(before);
      await expectDeletedCardGone(ledger.db, await filesUnder(folder));
    });
  });

  it("ledger backup, ledger restore: the same", async () => {
    const target = await createPostgresDatabase("template1");
    targets.push(target);
    await backupAndRestore(config(api.database.url!), config(target.url), path.join(folder, "ledger"));
  });
});
