/**
 * `npm run bench:idle`: what the service spends doing nothing — its background work (projection
 * polls, the pending resolver, the webhook dispatcher's looks, lease renewals, gauges) — as CPU
 * time a second of its process, measured from /proc over an idle stretch after a few sales. On the
 * embedded database the database's own work is in that process too. No goal: the figure is the
 * floor under every rate bench:capacity measures (docs/capacity.md).
 *
 * Usage: tsx bench/idle.ts [--store pglite|postgres] [--seconds 20] [--database-url URL]
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { everyProcessorAt } from "../tests/support/service.ts";
import { processCpuMs, startServiceChild, startSimulatorChild } from "./capacity/processes.ts";
import { ADMIN_KEY, APPROVING_CARD_BODY, createPayingClient } from "./http-load.ts";
import { formatNumber, openTarget, serverArgs } from "./support.ts";

const SALES = 50;

const { values, serverUrl } = serverArgs(["store", "seconds"]);
const options = z
  .object({ store: z.enum(["pglite", "postgres"]).default("pglite"), seconds: z.coerce.number().int().positive().default(20) })
  .parse(values);

const target = options.store === "postgres" ? await openTarget("postgres", serverUrl) : undefined;
const dataDir = await mkdtemp(path.join(tmpdir(), "idle-"));
const simulator = await startSimulatorChild();
try {
  const service = await startServiceChild(
    {
      DATABASE_URL: target?.url ?? "",
      DATA_DIR: dataDir,
      ADMIN_API_KEY: ADMIN_KEY,
      SECRETS_MASTER_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      CARD_FINGERPRINT_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
      ...everyProcessorAt(simulator.url),
    },
    { role: "all" },
  );
  try {
    const { key } = await createPayingClient(service.url, "Idle");
    for (let index = 0; index < SALES; index += 1) {
      const response = await fetch(`${service.url}/v1/transactions/sale`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ processor: "processor_a", amount: 1000, currency: "USD", userId: `u${index % 10}`, card: APPROVING_CARD_BODY }),
      });
      await response.text();
      if (response.status !== 201) throw new Error(`a sale answered ${response.status}`);
    }
    // The sales' projections, webhooks and gauges settle first.
    await sleep(5_000);
    const before = processCpuMs(service.pid);
    const startedAt = performance.now();
    await sleep(options.seconds * 1_000);
    const cpuMsPerSecond = (processCpuMs(service.pid) - before) / ((performance.now() - startedAt) / 1_000);
    console.log(
      `bench:idle on ${options.store} (load average ${formatNumber(loadavg()[0] ?? 0, 2)}): the service at idle spends ` +
        `${formatNumber(cpuMsPerSecond, 1)} ms of CPU a second (${formatNumber(cpuMsPerSecond / 10, 1)} % of a core) over ${options.seconds} s, after ${SALES} sales (no goal)`,
    );
  } finally {
    await service.stop();
  }
} finally {
  await simulator.stop();
  await target?.close();
  await rm(dataDir, { recursive: true, force: true });
}
