import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBuiltService, stopProcess } from "./support/process.ts";

const run = promisify(execFile);
const adminKey = "build-test-admin-key-0123456789abcdefghijklmnop";

describe("npm run build: the service as plain JavaScript", () => {
  let workDir: string;
  let outDir: string;

  beforeAll(async () => {
    // Inside the repository, so that the built files find its node_modules and its package.json ("type": "module").
    workDir = await mkdtemp(path.join(fileURLToPath(new URL("..", import.meta.url)), ".build-test-"));
    outDir = path.join(workDir, "dist");
    // The build script's own compiler settings, into a folder of the test's.
    await run("npx", ["tsc", "-p", "tsconfig.build.json", "--outDir", outDir]);
  }, 300_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it("imports no TypeScript file, so node runs it without a loader", async () => {
    const files = (await readdir(outDir, { recursive: true })).filter((file) => file.endsWith(".js"));
    expect(files).toContain("main.js");
    expect(files).toContain(path.join("cli", "ledger.js"));
    const tsImports: string[] = [];
    for (const file of files) {
      const source = await readFile(path.join(outDir, file), "utf8");
      for (const match of source.matchAll(/from\s+"(\.{1,2}\/[^"]+)"|import\("(\.{1,2}\/[^"]+)"\)/g)) {
        const specifier = match[1] ?? match[2]!;
        if (!specifier.endsWith(".js")) tsImports.push(`${file}: ${specifier}`);
      }
    }
    expect(tsImports).toEqual([]);
  });

  it("starts, answers the API and stops on SIGTERM; its built CLI then verifies the ledger it left", async () => {
    const dataDir = path.join(workDir, "data");
    const environment = { DATA_DIR: dataDir, DATABASE_URL: "", EVENTSTORE_URL: "" };
    const service = await startBuiltService(outDir, { ...environment, ADMIN_API_KEY: adminKey });
    try {
      const created = await fetch(`${service.url}/v1/clients`, {
        method: "POST",
        headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "Built" }),
      });
      expect(created.status).toBe(201);
      expect((await fetch(`${service.url}/openapi.json`)).status).toBe(200);
    } finally {
      expect(await stopProcess(service.child)).toBe(0);
    }

    // As an operator runs it where there is no src/ (the image): node alone, on the service's embedded
    // database, which one process at a time may open.
    const verified = await run(process.execPath, [path.join(outDir, "cli", "ledger.js"), "verify"], {
      env: { ...process.env, ...environment },
    });
    expect(verified.stdout).toContain("hash chains: ");
    expect(verified.stdout).toContain("read model clients: equal to a fresh replay");
    expect(verified.stdout.trimEnd().split("\n").at(-1)).toBe("verify: ok");
  }, 400_000);
});
