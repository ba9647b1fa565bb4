import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testEnvironment } from "../support/environment.ts";
import { recordPayments } from "../support/payments.ts";
import { runProcess } from "../support/process.ts";
import { startTestService, type TestService } from "../support/service.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));

// The CLI runs in a process of its own next to the service: that needs a server, not PGlite.
const skipReason = testEnvironment.databaseUrl ? undefined : "DATABASE_URL is not set";
if (skipReason) console.warn(`SKIPPED ledger trial-balance test: ${skipReason}`);

describe.skipIf(skipReason)("ledger trial-balance, next to the running service", { timeout: 60_000 }, () => {
  let api: TestService;

  const ledgerCommand = (...args: string[]) => runProcess(ledger, args, { DATABASE_URL: api.database.url!, EVENTSTORE_URL: "", DATA_DIR: "memory://" });
  const run = (...args: string[]) => ledgerCommand("trial-balance", ...args);

  beforeAll(async () => {
    api = await startTestService("postgres");
    await recordPayments(api);
  });
  afterAll(() => api?.stop());

  it("prints debits and credits per currency and exits 0 when the journal equals its replay; 1 once an entry is edited", async () => {
    const clean = await run();
    expect(clean.code, clean.stderr).toBe(0);
    const lines = clean.stdout.trimEnd().split("\n");
    // Acme: capture 600 less refund 200 owed, 600 sold, 200 refunded, 400 held; Globex: a sale of 500 owed and sold.
    const row = (label: string) => lines.find((line) => line.trimStart().startsWith(label))?.trim().split(/\s+/);
    expect(lines[1]).toMatch(/^USD\s+debit\s+credit$/);
    expect(row("processor_a processor_receivable")).toEqual(["processor_a", "processor_receivable", "900"]);
    expect(row("processor_a sales")).toEqual(["processor_a", "sales", "1100"]);
    expect(lines.find((line) => line.trimStart().startsWith("total"))).toMatch(/^\s+total\s+1500\s+1500 balanced$/);
    expect(lines.at(-2)).toMatch(/^journal: equal to a fresh replay of the log/);
    expect(lines.at(-1)).toBe("trial-balance: ok");

    // Rebuilt through its rebuild pass (the books kept in memory), the journal still equals the
    // replay through apply that trial-balance compares it with.
    const rebuilt = await ledgerCommand("rebuild", "journal");
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const afterRebuild = await run();
    expect(afterRebuild.stdout.trimEnd().split("\n").slice(-2)).toEqual([expect.stringMatching(/^journal: equal to a fresh replay of the log/), "trial-balance: ok"]);

    const before = await run("--as-of", "2000-01-01T00:00:00Z");
    expect(before.stdout.trimEnd().split("\n")[0]).toBe("trial balance as of 2000-01-01T00:00:00.000Z");

    await sql`update journal_entries set lines = '[]' where kind = 'refund_approved'`.execute(api.database.db);
    const edited = await run();
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/journal: DIFFERENT from a fresh replay of the log/);
    expect(edited.stdout.trimEnd().split("\n").at(-1)).toBe("trial-balance: 1 problem found");
  });
});
