import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { once } from "node:events";
import { startServiceInTerminal, startServiceProcess, startWithNpm, stopProcess } from "./support/process.ts";

const start = (dataDir: string) => startServiceProcess({ DATA_DIR: dataDir });
const stop = stopProcess;

describe("npm start on the embedded database", () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("prints a generated admin key once, keeps only its hash, and shuts down cleanly on SIGTERM", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "ledger-start-"));
    const first = await start(dataDir);
    const adminKey = /\n\s+(ldgr_admin_[A-Za-z0-9_-]{43})\n/.exec(first.output())?.[1];
    expect(adminKey).toBeDefined();
    const created = await fetch(`${first.url}/v1/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Acme" }),
    });
    expect(created.status).toBe(201);
    // The key appears once, in the banner: never in a log line.
    expect(first.output().split(adminKey!).length).toBe(2);
    expect(await stop(first.child)).toBe(0);

    const second = await start(dataDir);
    expect(second.output()).not.toContain("ldgr_admin_");
    const again = await fetch(`${second.url}/v1/clients/${((await created.json()) as { id: string }).id}`, {
      headers: { authorization: `Bearer ${adminKey}` },
    });
    expect(again.status).toBe(200);
    expect(await stop(second.child)).toBe(0);
  }, 400_000);

  // Elsewhere, one JSON object a line: startServiceProcess finds the service's pid in its JSON line.
  it("logs readable lines at a terminal", async () => {
    const terminalDataDir = await mkdtemp(path.join(tmpdir(), "ledger-terminal-"));
    try {
      const atTerminal = await startServiceInTerminal({ DATA_DIR: terminalDataDir });
      const exited = once(atTerminal.child, "exit");
      atTerminal.child.kill("SIGTERM");
      await exited;
      expect(atTerminal.output()).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] \S*INFO\S*: \S*payment ledger listening\S* \S*\{"database":"pglite"/);
      expect(atTerminal.output()).not.toContain('{"level"');
    } finally {
      await rm(terminalDataDir, { recursive: true, force: true });
    }
  }, 400_000);

  it("stops the service when npm itself is signalled (no orphan keeps the port and the database)", async () => {
    const npmDataDir = await mkdtemp(path.join(tmpdir(), "ledger-npm-start-"));
    let servicePid: number | undefined;
    try {
      const started = await startWithNpm({ DATA_DIR: npmDataDir });
      servicePid = started.servicePid;
      expect((await fetch(`${started.url}/health/live`)).status).toBe(200);
      const exited = once(started.child, "exit");
      started.child.kill("SIGTERM");
      await exited;
      await vi.waitFor(() => expect(() => process.kill(started.servicePid, 0)).toThrow(/ESRCH/), { timeout: 60_000, interval: 200 });
      expect(started.output()).toContain('"msg":"shutting down"');
      await expect(fetch(`${started.url}/health/live`)).rejects.toThrow();
    } finally {
      // An orphan left by a failure must not outlive the test.
      if (servicePid !== undefined) killQuietly(servicePid);
      await rm(npmDataDir, { recursive: true, force: true });
    }
  }, 400_000);
});

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // Gone already, as it should be.
  }
}
