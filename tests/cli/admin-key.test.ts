import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { rotateAdminKey } from "../../src/auth/admin-key.ts";
import { rotateAdminKeyCommand } from "../../src/cli/admin-key.ts";
import { testDatabaseTargets } from "../support/database.ts";
import { runProcess } from "../support/process.ts";
import { apiRequest, startTestService, TEST_ADMIN_KEY, type TestService } from "../support/service.ts";
import { Secret } from "../../src/domain/secret.ts";

const ledger = fileURLToPath(new URL("../../src/cli/ledger.ts", import.meta.url));
const adminKeyPattern = /^ldgr_admin_[A-Za-z0-9_-]{43}$/;

for (const target of testDatabaseTargets()) {
  // On PostgreSQL the command runs as a process next to the service; an embedded PGlite database
  // is one process's at a time, so there the test calls what the command runs, on the service's database.
  const viaCli = target === "postgres";

  describe(`ledger admin-key rotate, on ${target}`, { timeout: 90_000 }, () => {
    let api: TestService;

    /** `ledger admin-key rotate` on the service's database, with `environment` added. */
    const runRotate = (environment: Record<string, string> = {}) =>
      runProcess(ledger, ["admin-key", "rotate"], {
        DATABASE_URL: api.database.url!,
        EVENTSTORE_URL: "",
        DATA_DIR: "memory://",
        ADMIN_API_KEY: "",
        ...environment,
      });
    const rotate = async (): Promise<string> => {
      if (!viaCli) return rotateAdminKey(api.database.db);
      const rotated = await runRotate();
      expect(rotated.code, rotated.stderr).toBe(0);
      expect(rotated.stderr).toContain("The previous key no longer works");
      return rotated.stdout.trim();
    };
    const status = async (key: string) => (await apiRequest(api.url, "GET", "/v1/clients", { key })).status;
    const startLine = () =>
      api
        .logs()
        .split("\n")
        .filter((line) => line.includes("payment ledger listening"))
        .map((line) => JSON.parse(line));

    beforeAll(async () => {
      // No ADMIN_API_KEY: the first start generates the admin key and keeps its hash.
      api = await startTestService(target, { ADMIN_API_KEY: "" });
    });
    afterAll(() => api?.stop());

    it("prints a new key once; the old one answers 401 at once, the new one 200, and a restart keeps the new one", async () => {
      expect(startLine()).toEqual([
        expect.objectContaining({
          adminKey: "generated on this first start; only its hash is kept, in the database",
          replace: expect.stringContaining("admin-key rotate"),
        }),
      ]);
      // The generated key is not the test's: rotate once to know the key in use.
      const first = await rotate();
      expect(first).toMatch(adminKeyPattern);
      expect(await status(first)).toBe(200);
      expect(await status(TEST_ADMIN_KEY)).toBe(401);

      const second = await rotate();
      expect(second).toMatch(adminKeyPattern);
      expect(second).not.toBe(first);
      expect(await status(first)).toBe(401);
      expect(await status(second)).toBe(200);

      await api.restart();
      expect(await status(first)).toBe(401);
      expect(await status(second)).toBe(200);
      expect(startLine().at(-1)).toMatchObject({ adminKey: "generated on the first start; only its hash is kept, in the database" });
      // Never a key in a log line.
      expect(api.logs()).not.toContain("ldgr_admin_");
    });

    it("refuses when ADMIN_API_KEY is set, saying to change the variable, and changes nothing", async () => {
      const key = await rotate();
      if (viaCli) {
        const refused = await runRotate({ ADMIN_API_KEY: TEST_ADMIN_KEY });
        expect(refused.code).toBe(2);
        expect(refused.stdout).toBe("");
        expect(refused.stderr).toContain("ADMIN_API_KEY is set");
        expect(refused.stderr).toContain("change the variable and restart");
      } else {
        const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
        try {
          expect(await rotateAdminKeyCommand({ db: api.database.db }, new Secret(TEST_ADMIN_KEY))).toBe(2);
          expect(String(stderr.mock.calls[0]?.[0])).toContain("change the variable and restart");
        } finally {
          stderr.mockRestore();
        }
      }
      expect(await status(key)).toBe(200);
    });
  });

  describe(`the start line with ADMIN_API_KEY set, on ${target}`, () => {
    let api: TestService;
    beforeAll(async () => {
      api = await startTestService(target);
    });
    afterAll(() => api?.stop());

    it("says the key comes from the variable and how to replace it, never the key", async () => {
      const line = api
        .logs()
        .split("\n")
        .find((candidate) => candidate.includes("payment ledger listening"));
      expect(JSON.parse(line!)).toMatchObject({ adminKey: "set by ADMIN_API_KEY", replace: "change ADMIN_API_KEY and restart every instance" });
      expect(api.logs()).not.toContain(TEST_ADMIN_KEY);
      // A stored key does not work beside the variable's.
      const stored = await rotateAdminKey(api.database.db);
      expect((await apiRequest(api.url, "GET", "/v1/clients", { key: stored })).status).toBe(401);
      expect((await apiRequest(api.url, "GET", "/v1/clients", { key: TEST_ADMIN_KEY })).status).toBe(200);
    });
  });
}
