import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { parsePrometheusText } from "./ops/prometheus-text.ts";
import { startServiceProcess, stopProcess } from "./support/process.ts";

const adminKey = "readme-walkthrough-admin-key-0123456789abcdef";

/** The shell block of README between its walkthrough markers. */
async function walkthrough(): Promise<string> {
  const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
  const block = /<!-- walkthrough:start -->\n```sh\n([\s\S]*?)```\n<!-- walkthrough:end -->/.exec(readme)?.[1];
  if (!block) throw new Error("README has no walkthrough block");
  return block;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

const missingTools = ["bash", "curl", "jq"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
if (missingTools.length > 0) console.warn(`SKIPPED README walkthrough: ${missingTools.join(", ")} not installed (.ci/run installs them)`);

/** Stops whatever the script left running in its process group, which may have ended on its own already (ESRCH). */
function stopGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGTERM");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

describe.skipIf(missingTools.length > 0)("README's walkthrough, run as it stands", () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("gets from a fresh start to a settled sale, its webhooks and its count in the dashboard's metrics", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "ledger-walkthrough-"));
    const service = await startServiceProcess({
      DATA_DIR: dataDir,
      ADMIN_API_KEY: adminKey,
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
    });
    try {
      const receiverPort = await freePort();
      // Only what a reader would type differently: where the service listens, its admin key, a free port.
      const script = (await walkthrough())
        .replaceAll("http://127.0.0.1:3000", service.url)
        .replace("ldgr_admin_REPLACE_ME", adminKey)
        .replaceAll("4000", String(receiverPort));
      // A process group of its own, so that the receiver it leaves running is stopped with it.
      const shell = spawn("bash", ["-euo", "pipefail", "-c", script], { stdio: ["ignore", "pipe", "pipe"], detached: true });
      let output = "";
      shell.stdout.on("data", (chunk) => (output += String(chunk)));
      shell.stderr.on("data", (chunk) => (output += String(chunk)));
      try {
        const [code] = await once(shell, "exit");
        expect(code, output).toBe(0);
        await vi.waitFor(() => expect(output.match(/^webhook: /gm)?.length, output).toBe(4), { timeout: 30_000, interval: 100 });
      } finally {
        stopGroup(shell.pid!);
      }

      expect(output).toMatch(/"status": "matched"/);
      expect(output).toMatch(/"status": "approved",\s*"amount": 1099,\s*"settledAt": "\d{4}-/);
      expect(output).toMatch(/"secret": "whsec_/);
      // In order per transaction; the batch's message may come before or after them.
      const webhooks = [...output.matchAll(/^webhook: (\S+)$/gm)].map((match) => match[1]);
      expect(webhooks.filter((type) => type !== "settlement.closed")).toEqual(["transaction.pending", "transaction.approved", "transaction.updated"]);
      expect(webhooks).toContain("settlement.closed");

      // What the dashboard's Prometheus scrapes: the walkthrough's one sale, approved.
      expect(output).toMatch(/^transactions_total\{type="sale",processor="processor_a",outcome="approved"\} 1$/m);
      const { samples } = parsePrometheusText(await (await fetch(`${service.url}/metrics`)).text());
      const sales = samples.filter(({ name, labels }) => name === "transactions_total" && labels.type === "sale" && labels.processor === "processor_a");
      expect(Object.fromEntries(sales.map(({ labels, value }) => [labels.outcome, value]))).toEqual({ approved: 1, declined: 0, failed: 0, pending: 0 });
    } finally {
      expect(await stopProcess(service.child)).toBe(0);
    }
  }, 400_000);
});
