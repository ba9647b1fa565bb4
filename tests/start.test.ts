import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { once } from "node:events";
import { type AddressInfo, createServer } from "node:net";
import { fileURLToPath } from "node:url";
import {
  runProcess,
  startServiceInTerminal,
  startServiceProcess,
  startSimulatorProcess,
  startWithNpm,
  stopProcess,
} from "./support/process.ts";
import { everyProcessorAt, TEST_ADMIN_KEY, testSecrets } from "./support/service.ts";

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

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const emptyModule = fileURLToPath(new URL("./support/empty-module.ts", import.meta.url));
const ledger = fileURLToPath(new URL("../src/cli/ledger.ts", import.meta.url));
const everyProcessor = ["processor_a", "processor_b", "processor_c", "processor_d"];

describe("a start refused for its configuration", () => {
  /**
   * Starts `src/main.ts` with `environment` and expects it to stop before it opens anything: exit
   * 2, one line on stderr. A start that goes on instead is killed (a minute is far beyond a
   * refusal, and far below a first start) and fails the test with code null.
   */
  async function refusedLine(environment: Record<string, string>): Promise<string> {
    const started = await runProcess(
      main,
      [],
      { PORT: "0", DATA_DIR: "memory://", DATABASE_URL: "", ...environment },
      { killAfterMs: 60_000 },
    );
    expect(started.code, started.stderr).toBe(2);
    expect(started.stdout).toBe("");
    const lines = started.stderr.trimEnd().split("\n");
    expect(lines, started.stderr).toHaveLength(1);
    return lines[0]!;
  }

  it("says which variable is bad and what it must be, in one line without a stack, and exits 2", { timeout: 120_000 }, async () => {
    const [port, level, flag, masterKeys, fingerprintKey] = await Promise.all([
      refusedLine({ PORT: "abc" }),
      refusedLine({ LOG_LEVEL: "loud" }),
      refusedLine({ SIMULATOR: "yes" }),
      refusedLine({ SECRETS_MASTER_KEYS: "k1:short" }),
      refusedLine({ CARD_FINGERPRINT_KEY: "abc" }),
    ]);
    expect(port).toBe('Invalid configuration: PORT="abc" must be an integer 0..65535');
    expect(level).toBe('Invalid configuration: LOG_LEVEL="loud" must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent"');
    expect(flag).toBe('Invalid configuration: SIMULATOR="yes" must be one of "true", "false"');
    expect(masterKeys).toMatch(/^Invalid configuration: SECRETS_MASTER_KEYS \(8 characters, masked\) must be id:base64key.*32 bytes/);
    expect(fingerprintKey).toBe(
      "Invalid configuration: CARD_FINGERPRINT_KEY (3 characters, masked) must be base64 of at least 32 bytes, or id:base64[,id:base64...] with the active key last",
    );
  });

  // The configuration is read before the service's modules load: a refusal is as quick as a
  // bare `node --import tsx` start, whatever the machine's load (here measured beside one).
  it("refuses within a second of what starting Node itself takes", { timeout: 120_000 }, async () => {
    const bare = performance.now();
    await runProcess(emptyModule, [], {});
    const nodeStartMs = performance.now() - bare;
    const started = performance.now();
    await refusedLine({ PORT: "abc" });
    expect(performance.now() - started).toBeLessThan(nodeStartMs + 1_000);
  });

  it("refuses a production start that would run on the simulator, naming the processor URLs left unset", { timeout: 120_000 }, async () => {
    const [none, some, secrets] = await Promise.all([
      refusedLine({ NODE_ENV: "production" }),
      refusedLine({ NODE_ENV: "production", PROCESSOR_A_URL: "https://a.example", PROCESSOR_C_URL: "https://c.example" }),
      refusedLine({ NODE_ENV: "production", SIMULATOR: "true", ...testSecrets }),
    ]);
    expect(none).toBe(
      "Invalid configuration: with NODE_ENV=production, set PROCESSOR_A_URL, PROCESSOR_B_URL, PROCESSOR_C_URL, PROCESSOR_D_URL " +
        "(or SIMULATOR=true to run on the processor simulator)",
    );
    expect(some).toMatch(/set PROCESSOR_B_URL, PROCESSOR_D_URL \(or SIMULATOR=true/);
    // The other refusals of a production start are tests/config-secrets.test.ts's; they end the same way.
    expect(secrets).toBe(
      "Invalid configuration: with NODE_ENV=production, set ADMIN_API_KEY (or ADMIN_API_KEY_FILE): secrets are never generated into DATA_DIR in production",
    );
  });

  it("lets the ledger CLI run in production without processor URLs: it calls no processor", { timeout: 120_000 }, async () => {
    const day = "2020-01-01";
    const settlements = await runProcess(ledger, ["settlements", "--date", day], { NODE_ENV: "production", DATA_DIR: "memory://", DATABASE_URL: "" });
    expect(settlements.code, settlements.stderr).toBe(0);
    expect(settlements.stdout).toBe(`0 settlement batches opened on ${day}, 0 mismatched\n`);
  });
});

describe("which processors a start simulates", () => {
  it("a production start with SIMULATOR=true runs on the simulator, and its log and readiness say so", async () => {
    // A production start is given every secret (tests/config-secrets.test.ts: it refuses to generate them).
    const started = await startServiceProcess({ DATA_DIR: "memory://", NODE_ENV: "production", SIMULATOR: "true", ...testSecrets, ADMIN_API_KEY: TEST_ADMIN_KEY });
    try {
      const listening = started.output().split("\n").find((line) => line.includes("payment ledger listening"))!;
      expect(JSON.parse(listening)).toMatchObject({ simulatedProcessors: everyProcessor, simulator: expect.stringMatching(/^http:/) });
      const ready = await fetch(`${started.url}/health/ready`);
      expect(await ready.json()).toEqual({ status: "ready", simulatedProcessors: everyProcessor });
    } finally {
      expect(await stop(started.child)).toBe(0);
    }
  }, 400_000);

  // Not in production: there processors are reached over https only, and the simulator speaks http.
  it("a start with every processor URL simulates none, and its log and readiness say so", async () => {
    const processors = await startSimulatorProcess();
    try {
      const started = await startServiceProcess({ DATA_DIR: "memory://", ...everyProcessorAt(processors.url) });
      try {
        const listening = started.output().split("\n").find((line) => line.includes("payment ledger listening"))!;
        expect(JSON.parse(listening)).toMatchObject({ simulatedProcessors: [] });
        expect(JSON.parse(listening)).not.toHaveProperty("simulator");
        const ready = await fetch(`${started.url}/health/ready`);
        expect(await ready.json()).toEqual({ status: "ready", simulatedProcessors: [] });
      } finally {
        expect(await stop(started.child)).toBe(0);
      }
    } finally {
      await processors.stop();
    }
  }, 400_000);
});

describe("a start that cannot listen or reach its database", () => {
  /** Starts `src/main.ts` expecting it to give up: exit 1, its last line on stderr, the details in the log on stdout. */
  async function failedStart(environment: Record<string, string>): Promise<{ line: string; log: string }> {
    const finished = await runProcess(main, [], { DATA_DIR: "memory://", DATABASE_URL: "", LOG_LEVEL: "info", ...environment }, { killAfterMs: 90_000 });
    expect(finished.code, finished.stdout + finished.stderr).toBe(1);
    const lines = finished.stderr.trimEnd().split("\n");
    expect(lines, finished.stderr).toHaveLength(1);
    return { line: lines[0]!, log: finished.stdout };
  }

  it("says which port is in use, in one line, and exits 1; the error is in the log", { timeout: 120_000 }, async () => {
    const taken = createServer();
    taken.listen(0, "127.0.0.1");
    await once(taken, "listening");
    const { port } = taken.address() as AddressInfo;
    try {
      const { line, log } = await failedStart({ PORT: String(port) });
      expect(line).toBe(`The service could not start: port ${port} is in use (EADDRINUSE) on 127.0.0.1:${port}; stop what listens there or set PORT (details in the log)`);
      expect(log).toMatch(/"level":60,.*"code":"EADDRINUSE".*"msg":"the service could not start"/);
    } finally {
      taken.close();
    }
  });

  it("says which database does not answer, without its credentials, in one line, and exits 1", { timeout: 120_000 }, async () => {
    // One refuses connections; the other accepts them and never speaks.
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const refusingPort = (closed.address() as AddressInfo).port;
    closed.close();
    const silent = createServer(() => {});
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const silentPort = (silent.address() as AddressInfo).port;
    try {
      const [refused, unanswered] = await Promise.all([
        failedStart({ DATABASE_URL: `postgres://ledger:hunter2@127.0.0.1:${refusingPort}/ledger` }),
        failedStart({ DATABASE_URL: `postgres://ledger:hunter2@127.0.0.1:${silentPort}/ledger`, DATABASE_CONNECT_TIMEOUT_MS: "300" }),
      ]);
      expect(refused.line).toBe(
        `The service could not start: the database at 127.0.0.1:${refusingPort}/ledger does not answer (ECONNREFUSED); check DATABASE_URL and that the server runs (details in the log)`,
      );
      expect(unanswered.line).toMatch(
        new RegExp(`^The service could not start: the database at 127\\.0\\.0\\.1:${silentPort}/ledger does not answer \\((timeout|Connection terminated)[^)]*\\); check DATABASE_URL`),
      );
      for (const { line, log } of [refused, unanswered]) {
        expect(line + log).not.toContain("hunter2");
        expect(log).toContain('"msg":"the service could not start"');
      }
    } finally {
      silent.close();
    }
  });
});
