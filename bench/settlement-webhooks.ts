/**
 * The memory of a settlement close whose transactions each become a `transaction.updated`
 * webhook (issue 32): the webhooks projection must take the batch in pages, never whole.
 *
 * The real service runs in this process on a fresh `ledger_bench_<random>` database, the
 * simulator in its own. One client makes `--transactions` approved sales through the API
 * (autocannon, a fixed number of requests) and subscribes an endpoint (a receiver in this process
 * answering 200) to `transaction.updated`. The batch is then closed by hand, and the bench waits
 * until the outbox holds one `transaction.updated` delivery per settled sale. Memory (RSS and
 * heap) is sampled every 100 ms: the peak during the close and its webhooks, against the peak
 * of the quiet seconds before it (after a full collection when run with --expose-gc). With
 * `--endpoint off` nothing subscribes: the same close without the webhooks, for comparison.
 *
 * Usage: NODE_OPTIONS=--expose-gc tsx bench/settlement-webhooks.ts [--database-url URL]
 *          [--transactions 10000] [--endpoint on|off]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { sql } from "kysely";
import { call, createPayingClient, saleBodies, settledApprovedSales, startBenchService } from "./http-load.ts";
import { formatNumber, intOption, openTarget, serverArgs } from "./support.ts";

const { values, serverUrl } = serverArgs(["transactions", "endpoint"]);
const transactions = intOption(values.transactions, 10_000, "transactions");
if (values.endpoint !== undefined && values.endpoint !== "on" && values.endpoint !== "off") throw new Error("--endpoint must be on or off");
const subscribed = values.endpoint !== "off";
const MB = 1024 * 1024;

/** The highest RSS and heap seen while `work` runs. */
async function peakDuring<T>(work: () => Promise<T>): Promise<{ value: T; rss: number; heap: number }> {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    rss = Math.max(rss, usage.rss);
    heap = Math.max(heap, usage.heapUsed);
  };
  const timer = setInterval(sample, 100);
  try {
    const value = await work();
    sample();
    return { value, rss, heap };
  } finally {
    clearInterval(timer);
  }
}

const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(200).end());
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

const target = await openTarget("postgres", serverUrl);
const service = await startBenchService(target, { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" });
try {
  const payer = await createPayingClient(service.url, "Batch");
  if (subscribed) {
    await call(service.url, "POST", "/v1/webhook-endpoints", { clientId: payer.clientId, url: receiverUrl, events: ["transaction.updated"] });
  }

  const seedStarted = performance.now();
  await autocannon({
    url: `${service.url}/v1/transactions/sale`,
    connections: 64,
    amount: transactions,
    workers: 1,
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${payer.key}` },
    requests: saleBodies().map((body) => ({ method: "POST", body })),
  });
  const approved = await settledApprovedSales(target, payer.clientId);
  console.log(`seeded ${approved} approved sales in ${formatNumber((performance.now() - seedStarted) / 1000, 1)} s`);

  (globalThis as { gc?: () => void }).gc?.();
  const quiet = await peakDuring(() => sleep(3_000));
  const updates = async () => {
    const row = await target.connection.db
      .selectFrom("webhook_deliveries")
      .select(sql<string>`count(*)::text`.as("count"))
      .where("event_type", "=", "transaction.updated")
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  };
  const closeStarted = performance.now();
  const close = await peakDuring(async () => {
    const batch = await call<{ id: string }>(service.url, "POST", `/v1/host-configurations/processor_a/${payer.hostConfiguration.id}/settle`, {});
    while ((await call<{ status: string }>(service.url, "GET", `/v1/settlements/${batch.id}`)).status === "closing") await sleep(250);
    while (subscribed && (await updates()) < approved) await sleep(250);
  });
  console.log(
    `${approved} settled, ${await updates()} transaction.updated queued in ${formatNumber((performance.now() - closeStarted) / 1000, 1)} s; ` +
      `peak RSS ${formatNumber(quiet.rss / MB)} MB before, ${formatNumber(close.rss / MB)} MB during; ` +
      `peak heap ${formatNumber(quiet.heap / MB)} MB before, ${formatNumber(close.heap / MB)} MB during`,
  );
} finally {
  await service.stop();
  await target.close();
  receiver.close();
}
