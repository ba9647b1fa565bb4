import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { utcDay } from "../../src/domain/limits/limits.ts";
import { spawnEntry } from "./processes.ts";
import type { WorkloadClient } from "./workload.ts";

const page = z.object({ data: z.array(z.unknown()) });
const resolverOwed = z.object({
  resolver: z.object({ owed: z.object({ inquire: z.number(), reverse: z.number(), watch: z.number() }) }),
});
const clientView = z.object({
  limits: z.array(z.object({ currency: z.string(), today: z.object({ usedAmount: z.number(), usedCount: z.number() }) })),
});

async function getJson<T>(url: string, key: string, schema: z.ZodType<T>): Promise<T> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return schema.parse(await response.json());
}

/**
 * Waits until no client has a pending transaction and the resolver owes nothing (no inquiry, no
 * reversal, no failed transaction still watched for a late approval), at most `timeoutMs`; returns
 * how long it took, or undefined if some work stayed owed. A failure still watched is not pending,
 * so judging on `status=pending` alone judged before a late approval could be recorded.
 */
export async function waitUntilNothingPending(
  baseUrl: string,
  adminKey: string,
  clients: readonly WorkloadClient[],
  timeoutMs: number,
): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const owed = await getJson(`${baseUrl}/v1/operations/status`, adminKey, resolverOwed).then(
      ({ resolver }) => resolver.owed.inquire + resolver.owed.reverse + resolver.owed.watch,
      () => 1,
    );
    const pending = await Promise.all(
      clients.map((client) =>
        getJson(`${baseUrl}/v1/transactions?status=pending&limit=1`, client.key, page).then(
          ({ data }) => data.length,
          () => 1,
        ),
      ),
    );
    if (owed === 0 && pending.every((count) => count === 0)) return Date.now() - started;
    await sleep(1_000);
  }
  return undefined;
}

/** Today's usage of each client's USD limit, as the API reports it to the admin. */
export async function readLimitUsage(
  baseUrl: string,
  adminKey: string,
  clients: readonly WorkloadClient[],
): Promise<{ today: string; usage: Map<string, { usedAmount: number; usedCount: number }> }> {
  const today = utcDay(new Date());
  const usage = new Map<string, { usedAmount: number; usedCount: number }>();
  for (const client of clients) {
    const view = await getJson(`${baseUrl}/v1/clients/${client.clientId}`, adminKey, clientView);
    const usd = view.limits.find((limit) => limit.currency === "USD");
    if (usd) usage.set(client.clientId, usd.today);
  }
  return { today, usage };
}

/** Runs `ledger verify` (hash chains, read models against a replay) on the given stores. */
export async function ledgerVerify(env: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const child = spawnEntry("src/cli/ledger.ts", ["verify", "--settle-timeout", "60"], { LOG_LEVEL: "warn", ...env });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { ok: code === 0, output };
}
