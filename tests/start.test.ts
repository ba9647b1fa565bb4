import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

/** Runs `src/main.ts` as `npm start` does, until it says where it listens. */
async function start(dataDir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", DATABASE_URL: "", ADMIN_API_KEY: "", LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += String(chunk)));
  child.stderr!.on("data", (chunk) => (output += String(chunk)));
  const started = Date.now();
  while (!/docs: (http:\S+)\/docs/.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 60_000) throw new Error(`did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const url = /docs: (http:\S+)\/docs/.exec(output)![1]!;
  return { child, url, output: () => output };
}

async function stop(child: ChildProcess): Promise<number | null> {
  child.kill("SIGTERM");
  const [code] = await once(child, "exit");
  return code as number | null;
}

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
  }, 120_000);
});
