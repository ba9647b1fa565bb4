/**
 * Sales per second of a client with a daily limit next to a client without limits, in the same
 * run, on the same service, with the same autocannon load (issue 6: the limit check may cost at
 * most 20 % of throughput).
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * database, the processor simulator in a process of its own. Two clients are created through the
 * API, each with an API key and a processor_a host configuration; one gets a USD limit (per
 * transaction, daily amount, daily count) far above anything the run reaches, so every sale is
 * checked and reserved but none is refused. Two clients rather than one measured before and after
 * setting the limit: they can be measured in alternation, so neither gets only the fuller tables
 * of the end of the run, and nothing changes on either while it runs. Rounds alternate the order
 * (no limits then limit, limit then no limits, ...), so a drift over time weighs on both alike.
 * Each run is a warm-up, a pause until the warm-up's sales in flight are done, and the measured
 * run.
 * At the end the limited client's usage today (GET /v1/clients/{id}) must equal its approved
 * sales in the read model, count and amount.
 *
 * Usage: tsx bench/limits.ts [--database-url URL] [--seconds 10] [--connections 64] [--rounds 2]
 */
import { sql } from "kysely";
import { z } from "zod";
import { MAX_AMOUNT } from "../src/domain/money.ts";
import {
  call,
  createPayingClient,
  type Load,
  measure,
  type Measured,
  ms,
  POOL_SIZE,
  rowsOf,
  type RunShape,
  saleBodies,
  settledApprovedSales,
  startBenchService,
} from "./http-load.ts";
import { type BenchTarget, formatNumber, intOption, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

const GOAL_MAX_COST = 0.2;
/** Far above what a run reaches (sales of at most 99.99): checked on every sale, never hit. */
const LIMIT = { currency: "USD", maxAmountPerTransaction: 1_000_000, dailyAmount: MAX_AMOUNT, dailyCount: 1_000_000_000 };

const { values, serverUrl } = serverArgs(["seconds", "connections", "rounds"]);
const shape: RunShape = {
  seconds: intOption(values.seconds, 10, "seconds"),
  connections: intOption(values.connections, 64, "connections"),
};
const rounds = intOption(values.rounds, 2, "rounds");

interface Side {
  name: string;
  client: { clientId: string; key: string };
  runs: Measured[];
}

const usageSchema = z.object({
  limits: z.array(z.object({ currency: z.string(), today: z.object({ usedAmount: z.number(), usedCount: z.number() }) })),
});

/** Sales per second of a side over all its runs. */
const perSecond = (side: Side) =>
  side.runs.reduce((sum, run) => sum + run.result["2xx"], 0) / side.runs.reduce((sum, run) => sum + run.result.duration, 0);

/** Throughput and latency of a side over all its runs. */
function summaryRows(side: Side): ResultRow[] {
  const mean = (of: (run: Measured) => number) => side.runs.reduce((sum, run) => sum + of(run), 0) / side.runs.length;
  const target = `${side.name}, all runs`;
  return [
    { target, metric: `sales/s (${side.runs.length} × ${shape.seconds} s)`, value: formatNumber(perSecond(side)), goal: "-", met: "-" },
    {
      target,
      metric: "latency p50 / p99 (mean of runs)",
      value: `${ms(mean((run) => run.result.latency.p50))} / ${ms(mean((run) => run.result.latency.p99))}`,
      goal: "-",
      met: "-",
    },
  ];
}

/** The limited client's usage today next to its approved sales in the read model. */
async function usageRow(target: BenchTarget, baseUrl: string, side: Side): Promise<ResultRow> {
  const { clientId } = side.client;
  const approvedCount = await settledApprovedSales(target, clientId);
  const { amount } = await target.connection.db
    .selectFrom("transactions")
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as("amount"))
    .where("client_id", "=", clientId)
    .where("type", "=", "sale")
    .where("status", "=", "approved")
    .executeTakeFirstOrThrow();
  const { limits } = usageSchema.parse(await call(baseUrl, "GET", `/v1/clients/${clientId}`));
  const usage = limits.find((limit) => limit.currency === LIMIT.currency)?.today;
  const matches = usage?.usedCount === approvedCount && usage.usedAmount === Number(amount);
  return {
    target: side.name,
    metric: "usage today vs approved sales (count, amount)",
    value: `${usage?.usedCount ?? "none"}, ${usage?.usedAmount ?? "none"} vs ${approvedCount}, ${amount}`,
    goal: "equal",
    met: matches ? "yes" : "no",
  };
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  try {
    const service = await startBenchService(target);
    try {
      const free: Side = { name: "no limits", client: await createPayingClient(service.url, "Without limits"), runs: [] };
      const limited: Side = { name: "daily limit", client: await createPayingClient(service.url, "With a limit"), runs: [] };
      await call(service.url, "PUT", `/v1/clients/${limited.client.clientId}/limits`, { limits: [LIMIT] });

      const bodies = saleBodies();
      const results: ResultRow[] = [];
      let run = 0;
      for (let round = 0; round < rounds; round += 1) {
        for (const side of round % 2 === 0 ? [free, limited] : [limited, free]) {
          run += 1;
          const load: Load = {
            url: `${service.url}/v1/transactions/sale`,
            headers: { authorization: `Bearer ${side.client.key}` },
            bodies,
          };
          const measured = await measure(`${side.name}, run ${run}`, load, shape, async () => {
            await settledApprovedSales(target);
          });
          side.runs.push(measured);
          results.push(...rowsOf(`${side.name}, run ${run}`, "sales", measured));
        }
      }

      const cost = 1 - perSecond(limited) / perSecond(free);
      results.push(
        ...summaryRows(free),
        ...summaryRows(limited),
        {
          target: "daily limit vs no limits",
          metric: "throughput cost of the limit check",
          value: `${formatNumber(cost * 100, 1)} %`,
          goal: `<= ${GOAL_MAX_COST * 100} %`,
          met: cost <= GOAL_MAX_COST ? "yes" : "no",
        },
        await usageRow(target, service.url, limited),
      );
      printResults(results);
    } finally {
      await service.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
