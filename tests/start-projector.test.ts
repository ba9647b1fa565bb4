import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "./support/database.ts";
import { testEnvironment } from "./support/environment.ts";
import { runProcess, startProjectorProcess, startServiceProcess, stopProcess } from "./support/process.ts";

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

const skip = testEnvironment.databaseUrl ? undefined : "an API and a projector in processes of their own need DATABASE_URL";
if (skip) console.warn(`SKIPPED start:api beside start:projector: ${skip}`);

describe.skipIf(skip)("start:api beside start:projector on PostgreSQL", () => {
  it("the API's next read reflects its write, applied by the projector's process, and both stop on SIGTERM", async () => {
    const database = await openTestDatabase("postgres");
    const dataDir = await mkdtemp(path.join(tmpdir(), "ledger-projector-"));
    try {
      const adminKey = "start-projector-admin-key-0123456789abcdefghijklmnop";
      const environment = { DATA_DIR: dataDir, DATABASE_URL: database.url!, ADMIN_API_KEY: adminKey };
      const api = await startServiceProcess(environment, { role: "api" });
      const projector = await startProjectorProcess(environment);
      expect(api.output()).not.toContain("projector running");

      const created = await fetch(`${api.url}/v1/clients`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Acme" }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      const read = await fetch(`${api.url}/v1/clients/${id}`, { headers: { authorization: `Bearer ${adminKey}` } });
      expect(read.status).toBe(200);
      expect(await read.json()).toMatchObject({ id, name: "Acme" });

      expect(await stopProcess(api.child)).toBe(0);
      expect(await stopProcess(projector.child)).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await database.close();
    }
  }, 200_000);
});
