import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareTrialBalances, createJournalRecomputer, parseServedTrialBalance } from "../../src/audit/export-journal.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { validBodies } from "../support/host-configurations.ts";
import { approvedCard } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { type Json, startTestService, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));

type Client = Awaited<ReturnType<TestService["createClient"]>>;

for (const target of testDatabaseTargets()) {
  describe(`recomputing the journal from an export offline, on one from ${target}`, () => {
    let api: TestService;
    let acme: Client;
    /** The answers of GET /v1/journal/trial-balance: every client's (admin), and Acme's own. */
    let served: { all: Json; acme: Json };
    /** The export's lines, in log order. */
    let lines: string[];

    const pay = async (client: Client, kind: string, body: Record<string, unknown>) => {
      const response = await api.request("POST", `/v1/transactions/${kind}`, { key: client.key, body });
      expect(response.status, response.text).toBe(201);
      return response.body.id as string;
    };

    beforeAll(async () => {
      api = await startTestService(target);
      const globex = await api.createClient("Globex");
      acme = await api.createClient("Acme");
      const configurations: string[] = [];
      for (const client of [acme, globex]) {
        const created = await api.request("POST", "/v1/host-configurations/processor_a", { body: { ...validBodies.processor_a, clientId: client.clientId } });
        expect(created.status, created.text).toBe(201);
        configurations.push(created.body.id);
      }
      const payment = { processor: "processor_a", currency: "USD", userId: "user_1", card: approvedCard };
      const authorization = await pay(acme, "authorization", { ...payment, amount: 1000 });
      const capture = await pay(acme, "capture", { transactionId: authorization, amount: 600 });
      await pay(acme, "refund", { transactionId: capture, amount: 200 });
      await pay(globex, "sale", { ...payment, amount: 500 });
      const settled = await api.request("POST", `/v1/host-configurations/processor_a/${configurations[1]}/settle`, { body: {} });
      expect(settled.status, settled.text).toBe(201);
      await pay(globex, "sale", { ...payment, amount: 300 });
      await pay(globex, "sale", { ...payment, currency: "EUR", amount: 900 });
      const trialBalance = async (key?: string) => {
        const response = await api.request("GET", "/v1/journal/trial-balance", key === undefined ? {} : { key });
        expect(response.status, response.text).toBe(200);
        return response.body;
      };
      served = { all: await trialBalance(), acme: await trialBalance(acme.key) };
      const events = await api.request("GET", "/v1/events?limit=100");
      expect(events.status, events.text).toBe(200);
      expect(events.body.data.length).toBeLessThan(100);
      lines = (events.body.data as Json[]).map((event) => JSON.stringify(event));
    });
    afterAll(() => api?.stop());

    const recomputed = (clientId?: string) => {
      const journal = createJournalRecomputer();
      for (const line of lines) journal.add(line);
      return { journal, trialBalance: journal.trialBalance({ asOf: new Date(served.all.asOf), clientId }) };
    };

    it("gives the trial balance the service served, of every client and of one, settled funds included", () => {
      const all = recomputed();
      expect(all.trialBalance).toEqual(served.all.data);
      expect(served.all.data.map((currency: Json) => currency.currency)).toEqual(["EUR", "USD"]);
      const usd = served.all.data.find((currency: Json) => currency.currency === "USD");
      expect(usd.accounts).toContainEqual({ account: "settled_funds", processor: "processor_a", debit: 500, credit: 0 });
      expect(recomputed(acme.clientId).trialBalance).toEqual(served.acme.data);
      expect(all.journal.entries().every((entry) => entry.lines.reduce((total, line) => total + line.debit - line.credit, 0) === 0)).toBe(true);
    });

    it("names each figure of an edited served trial balance that the export's events do not post", () => {
      const edited = structuredClone(served.all) as Json;
      const usd = edited.data.find((currency: Json) => currency.currency === "USD");
      const sales = usd.accounts.find((row: Json) => row.account === "sales");
      sales.credit += 100;
      usd.credit += 100;
      const parsed = parseServedTrialBalance(JSON.stringify(edited));
      if (typeof parsed === "string") throw new Error(parsed);
      expect(compareTrialBalances(parsed.data, recomputed().trialBalance)).toEqual([
        { currency: "USD", row: "total", served: `debit ${usd.debit}, credit ${usd.credit}`, recomputed: `debit ${usd.debit}, credit ${usd.debit}` },
        { currency: "USD", row: "processor_a sales", served: `debit 0, credit ${sales.credit}`, recomputed: `debit 0, credit ${sales.credit - 100}` },
      ]);
    });

    const cliSkipReason = target === "pglite" ? undefined : "the command reads files only: it runs once, on the PGlite export";
    if (cliSkipReason) console.warn(`SKIPPED ledger verify-export --trial-balance on ${target}: ${cliSkipReason}`);

    it.skipIf(cliSkipReason)("ledger verify-export --trial-balance passes the served trial balance and fails an edited one, with no database", async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), "verify-export-journal-"));
      try {
        const log = path.join(folder, "log.ndjson");
        const [intact, acmeOwn, edited] = ["all.json", "acme.json", "edited.json"].map((file) => path.join(folder, file)) as [string, string, string];
        await writeFile(log, lines.map((line) => `${line}\n`).join(""));
        await writeFile(intact, JSON.stringify(served.all));
        await writeFile(acmeOwn, JSON.stringify(served.acme));
        const changed = structuredClone(served.all) as Json;
        const eur = changed.data.find((currency: Json) => currency.currency === "EUR");
        eur.accounts.find((row: Json) => row.account === "processor_receivable").debit -= 900;
        eur.accounts.find((row: Json) => row.account === "sales").credit -= 900;
        eur.debit -= 900;
        eur.credit -= 900;
        await writeFile(edited, JSON.stringify(changed));
        const environment = { DATABASE_URL: "postgres://nobody@127.0.0.1:1/none", DATA_DIR: path.join(folder, "absent") };
        const [ok, own, failed] = await Promise.all([
          runProcess(ledger, ["verify-export", log, "--trial-balance", intact], environment),
          runProcess(ledger, ["verify-export", log, "--trial-balance", acmeOwn, "--client-id", acme.clientId], environment),
          runProcess(ledger, ["verify-export", log, "--trial-balance", edited], environment),
        ]);
        expect(ok.code, ok.stdout + ok.stderr).toBe(0);
        expect(ok.stdout).toContain(`its trial balance as of ${served.all.asOf} (every client's books) against ${intact}`);
        expect(ok.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: ok: the served trial balance is the one the export's events post");
        expect(own.code, own.stdout + own.stderr).toBe(0);
        expect(failed.code).toBe(1);
        expect(failed.stdout).toContain("DIFFERENT EUR total: served debit 0, credit 0; recomputed from the export debit 900, credit 900");
        expect(failed.stdout).toContain("DIFFERENT EUR processor_a processor_receivable: served debit 0, credit 0; recomputed from the export debit 900, credit 0");
        expect(failed.stdout.trimEnd().split("\n").at(-1)).toBe("verify-export: the served trial balance is not the one the export's events post (3 figures differ)");
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    }, 60_000);
  });
}
