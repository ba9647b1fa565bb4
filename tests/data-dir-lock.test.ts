import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess, type ServiceProcess, startServiceProcess, stopProcess } from "./support/process.ts";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const ledger = fileURLToPath(new URL("../src/cli/ledger.ts", import.meta.url));

/** The environment of a process on the embedded database in `dataDir`. */
const onDataDir = (dataDir: string) => ({ DATA_DIR: dataDir, DATABASE_URL: "", EVENTSTORE_URL: "", PORT: "0", ADMIN_API_KEY: "" });

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  return child.pid!;
}

// The lock concerns the embedded database only: PostgreSQL serves many processes by design.
describe("one process at a time on an embedded DATA_DIR", { timeout: 240_000 }, () => {
  let dataDir: string;
  let first: ServiceProcess;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "ledger-lock-"));
    first = await startServiceProcess({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    if (first) await stopProcess(first.child);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses a CLI command that writes and a second service while the service runs, naming its pid, and the service keeps serving", async () => {
    const pid = first.child.pid!;
    // Read-only commands work on a snapshot the service hands over (tests/cli/backup-restore.test.ts).
    const [verify, second] = await Promise.all([
      runProcess(ledger, ["rebuild", "clients"], onDataDir(dataDir)),
      runProcess(main, [], onDataDir(dataDir)),
    ]);
    expect(verify.code, verify.stdout + verify.stderr).not.toBe(0);
    expect(verify.stderr).toContain(`in use by process ${pid}`);
    expect(second.code, second.stdout + second.stderr).not.toBe(0);
    expect(second.stdout + second.stderr).toContain(`in use by process ${pid}`);

    const ready = await fetch(`${first.url}/health/ready`);
    expect(ready.status).toBe(200);
    const adminKey = /\n\s+(ldgr_admin_\S+)\n/.exec(first.output())![1];
    const created = await fetch(`${first.url}/v1/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await fetch(`${first.url}/v1/clients/${id}`, { headers: { authorization: `Bearer ${adminKey}` } })).status).toBe(200);
  });

  it("is released by a clean stop, and a lock left by a process that died is taken over", async () => {
    expect(await stopProcess(first.child)).toBe(0);
    const afterStop = await runProcess(ledger, ["verify"], onDataDir(dataDir));
    expect(afterStop.code, afterStop.stdout + afterStop.stderr).toBe(0);

    const lockFile = path.join(dataDir, "pglite.lock");
    const dead = await deadPid();
    await writeFile(lockFile, `${dead}\n`);
    first = await startServiceProcess({ DATA_DIR: dataDir });
    expect((await fetch(`${first.url}/health/ready`)).status).toBe(200);
    expect((await readFile(lockFile, "utf8")).trim()).toBe(String(first.child.pid));
  });
});
