import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { startTestService, type TestService } from "../support/service.ts";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const examples = path.join(root, "packages/client/examples");

/** The environment without what `npm test` exported for the repository's own npm: the shop's npm is a stranger's. */
const strangerEnvironment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

/** `npm pack`s `args`, into `destination`; the tarballs' paths. */
async function pack(args: string[], destination: string): Promise<string[]> {
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", destination, ...args], { cwd: root, env: strangerEnvironment });
  return (JSON.parse(stdout) as { filename: string }[]).map(({ filename }) => path.join(destination, filename));
}

/** The folder of `name` as installed for `from` (a package folder). */
const installedFolder = (name: string, from: string) =>
  path.dirname(createRequire(path.join(from, "package.json")).resolve(`${name}/package.json`));

/**
 * @payment-ledger/client as a merchant gets it: packed (its prepack builds it), installed into a
 * project of their own outside this repository, used from plain Node and from strict TypeScript.
 * Its dependency is packed from this repository's node_modules too, so the install needs no network.
 */
describe("the packed @payment-ledger/client, installed outside the repository", () => {
  let shop: string;

  beforeAll(async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "ledger-client-"));
    shop = path.join(work, "shop");
    const [client] = await pack(["--workspace", "packages/client"], work);
    const fetchFolder = installedFolder("openapi-fetch", root);
    // canonicalize's exports leave out its package.json: its folder is found by name.
    const canonicalizeFolder = path.join(root, "node_modules/canonicalize");
    const dependencies = await pack(
      ["--ignore-scripts", fetchFolder, installedFolder("openapi-typescript-helpers", fetchFolder), canonicalizeFolder, installedFolder("uuid", root)],
      work,
    );

    await mkdir(shop);
    await writeFile(path.join(shop, "package.json"), JSON.stringify({ name: "shop", private: true, type: "module" }));
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", client!, ...dependencies], { cwd: shop, env: strangerEnvironment });
    for (const example of ["sale.mjs", "capture.ts", "verify-export.mjs"]) await copyFile(path.join(examples, example), path.join(shop, example));
    // A merchant's strict settings; Node's types from this repository, the client's from the installed package.
    const compilerOptions = {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      strict: true,
      skipLibCheck: true,
      outDir: "dist",
      typeRoots: [path.join(root, "node_modules/@types")],
      types: ["node"],
    };
    await writeFile(path.join(shop, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["capture.ts"] }));
    await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", shop], { cwd: shop });
  }, 120_000);

  afterAll(async () => {
    if (shop) await rm(path.dirname(shop), { recursive: true, force: true });
  });

  it("ships built JavaScript and declarations, no TypeScript source", async () => {
    const installed = path.join(shop, "node_modules/@payment-ledger/client");
    const files = (await readdir(installed, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(installed, path.join(entry.parentPath, entry.name)));
    expect(files.sort()).toEqual([
      "README.md",
      "dist/chain-hash.d.ts",
      "dist/chain-hash.js",
      "dist/checkpoint-proof.d.ts",
      "dist/checkpoint-proof.js",
      ...["accounts", "balances", "books", "entries", "index", "payment-events", "payment-postings", "settlement-postings"].flatMap((name) => [
        `dist/domain/journal/${name}.d.ts`,
        `dist/domain/journal/${name}.js`,
      ]),
      "dist/domain/processors.d.ts",
      "dist/domain/processors.js",
      "dist/export-journal.d.ts",
      "dist/export-journal.js",
      "dist/index.d.ts",
      "dist/index.js",
      "dist/schema.d.ts",
      "dist/schema.js",
      "dist/verify-export.d.ts",
      "dist/verify-export.js",
      "openapi.json",
      "package.json",
    ]);
  });

  for (const target of testDatabaseTargets()) {
    describe(`against a running service on ${target}`, () => {
      let api: TestService;
      let environment: Record<string, string>;

      beforeAll(async () => {
        // Shedding on event-loop delay (a mean above MAX_EVENT_LOOP_DELAY_MS, 2 s by default, over a
        // second answers every request 503) measures this process's loop, which the service shares with
        // the embedded database (its queries run on it) and this test: on a machine loaded to 11 that is
        // the machine's delay, not the service's, and this test is about the client, not shedding.
        api = await startTestService(target, { MAX_EVENT_LOOP_DELAY_MS: "0" });
        // The platform operator's part: a client, its key and a processor_b host configuration; the
        // examples pay through the processor LEDGER_PROCESSOR names, never one of their own.
        const { clientId, key } = await api.createClient("Shop");
        const configured = await api.request("POST", "/v1/host-configurations/processor_b", { body: { ...validBodies.processor_b, clientId } });
        expect(configured.status).toBe(201);
        environment = { ...strangerEnvironment, LEDGER_URL: api.url, LEDGER_API_KEY: key, LEDGER_PROCESSOR: "processor_b" };
      });
      afterAll(() => api?.stop());

      const runInShop = async (file: string) => {
        const { stdout } = await run(process.execPath, [file], { cwd: shop, env: environment });
        return JSON.parse(stdout);
      };

      it("from plain Node: a sale approved, its retry replayed, a decline and an invalid request read as problems", async () => {
        const { sale, retry, declined, invalid } = await runInShop("sale.mjs");
        expect(sale).toMatchObject({ status: 201, replayed: null, transaction: { type: "sale", status: "approved", amount: 2500 } });
        expect(retry).toMatchObject({ status: 201, replayed: "true", transaction: { id: sale.transaction.id } });
        expect(declined).toMatchObject({
          status: 402,
          problem: { status: 402, code: "card_declined", transaction: { status: "declined", amount: 2500 } },
        });
        expect(invalid).toMatchObject({ status: 400, problem: { code: "validation_error", errors: [{ path: "amount" }] } });
        const stored = await api.request("GET", `/v1/transactions/${sale.transaction.id}`, { key: environment.LEDGER_API_KEY });
        expect(stored.body).toMatchObject({ status: "approved", amount: 2500 });
      });

      it("from TypeScript compiled against its declarations: a capture in part, a refused capture, history page by page", async () => {
        const { authorization, capture, refusal, history } = await runInShop("dist/capture.js");
        expect(authorization).toMatchObject({ type: "authorization", status: "approved", amount: 1000 });
        expect(capture).toMatchObject({ type: "capture", status: "approved", amount: 600, parentTransactionId: authorization.id });
        expect(refusal).toMatchObject({ status: 422, code: "amount_exceeds_capturable" });
        const own = await api.request("GET", "/v1/transactions?userId=user_42&limit=100", { key: environment.LEDGER_API_KEY });
        expect(history).toEqual(own.body.data.map(({ id, type, status }: { id: string; type: string; status: string }) => ({ id, type, status })));
        expect(history.map(({ id }: { id: string }) => id)).toEqual(expect.arrayContaining([authorization.id, capture.id]));
      });

      it("verifies an export of the log offline, and fails on an edited event", async () => {
        const { body } = await api.request("GET", "/v1/events?limit=100");
        const lines: string[] = body.data.map((event: object) => JSON.stringify(event));
        const edited = body.data.findIndex((event: { type: string }) => event.type === "TransactionInitiated.v1");
        const tampered = lines.with(edited, JSON.stringify({ ...body.data[edited], data: { ...body.data[edited].data, amount: 1 } }));
        await writeFile(path.join(shop, "intact.ndjson"), lines.join("\n"));
        await writeFile(path.join(shop, "tampered.ndjson"), tampered.join("\n"));

        const intact = JSON.parse((await run(process.execPath, ["verify-export.mjs", "intact.ndjson"], { cwd: shop })).stdout);
        expect(intact).toMatchObject({ ok: true, events: lines.length, unreadable: 0 });
        expect(intact.streams.every((stream: { problems: unknown[] }) => stream.problems.length === 0)).toBe(true);
        const failed = await run(process.execPath, ["verify-export.mjs", "tampered.ndjson"], { cwd: shop }).catch((error: { code: number; stdout: string }) => error);
        expect(failed).toMatchObject({ code: 1 });
        const verdict = JSON.parse(failed.stdout);
        expect(verdict.ok).toBe(false);
        expect(verdict.streams.flatMap((stream: { problems: unknown[] }) => stream.problems)).toEqual([
          { revision: body.data[edited].revision, code: "altered" },
        ]);
      });

      it("recomputes the journal from an export and compares it with the trial balance the service served, failing an edited one", async () => {
        const served = (await api.request("GET", "/v1/journal/trial-balance")).body;
        expect(served.data.length).toBeGreaterThan(0);
        const { body } = await api.request("GET", "/v1/events?limit=100");
        expect(body.data.length).toBeLessThan(100);
        await writeFile(path.join(shop, "journal.ndjson"), body.data.map((event: object) => JSON.stringify(event)).join("\n"));
        await writeFile(path.join(shop, "trial-balance.json"), JSON.stringify(served));
        const [currency] = served.data;
        const [row] = currency.accounts;
        const edited = { ...served, data: [{ ...currency, accounts: [{ ...row, debit: row.debit + 1 }, ...currency.accounts.slice(1)] }, ...served.data.slice(1)] };
        await writeFile(path.join(shop, "edited-trial-balance.json"), JSON.stringify(edited));

        const intact = JSON.parse((await run(process.execPath, ["verify-export.mjs", "journal.ndjson", "trial-balance.json"], { cwd: shop })).stdout);
        expect(intact).toMatchObject({ ok: true, journal: { ok: true, differences: [] } });
        expect(intact.journal.entries).toBeGreaterThan(0);
        const failed = await run(process.execPath, ["verify-export.mjs", "journal.ndjson", "edited-trial-balance.json"], { cwd: shop }).catch(
          (error: { code: number; stdout: string }) => error,
        );
        expect(failed).toMatchObject({ code: 1 });
        expect(JSON.parse(failed.stdout).journal.differences).toContainEqual({
          currency: currency.currency,
          row: `${row.processor} ${row.account}`,
          served: `debit ${row.debit + 1}, credit ${row.credit}`,
          recomputed: `debit ${row.debit}, credit ${row.credit}`,
        });
      });
    });
  }
});
