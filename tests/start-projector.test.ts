import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "./support/database.ts";
import { testEnvironment } from "./support/environment.ts";
import { runProcess, startServiceProcess, stopProcess } from "./support/process.ts";

describe("start:api and start:projector", () => {
  it.each(["api", "projector"])("%s refuses the embedded database: it is one process's", async (role) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-role-"));
    try {
      const run = await runProcess("src/main.ts", [role], { DATA_DIR: dataDir, DATABASE_URL: "" }, { killAfterMs: 60_000 });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`start:${role} needs DATABASE_URL`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

const skip = testEnvironment.databaseUrl ? undefined : "a projector process beside the API needs DATABASE_URL";
if (skip) console.warn(`SKIPPED npm start with its projector process: ${skip}`);

describe.skipIf(skip)("npm start on PostgreSQL", () => {
  it("runs the projections in a child process, reflects a write in the next read, and stops both on SIGTERM", async () => {
    const database = await openTestDatabase("postgres");
    const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-projector-"));
    try {
      const adminKey = "start-projector-admin-key-0123456789abcdefghijklmnop";
      const service = await startServiceProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url!, ADMIN_API_KEY: adminKey });
      const servicePid = Number(/"pid":(\d+).*docs: /.exec(service.output())?.[1]);
      const projectorPid = Number(/"pid":(\d+)[^\n]*"msg":"projector running"/.exec(service.output())?.[1]);
      expect(projectorPid).toBeGreaterThan(0);
      expect(projectorPid).not.toBe(servicePid);

      const created = await fetch(`${service.url}/v1/clients`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Acme" }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = await fetch(`${service.url}/v1/clients/${id}`, { headers: { authorization: `Bearer ${adminKey}` } });
      expect(read.status).toBe(200);

      expect(await stopProcess(service.child)).toBe(0);
      expect(() => process.kill(projectorPid, 0)).toThrow();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await database.close();
    }
  }, 200_000);
});
