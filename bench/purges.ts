/**
 * What the retention purges cost the payments: keyed sales per second (a unique Idempotency-Key
 * each, so each sale writes the table the purge deletes from) while the idempotency and
 * webhook-log purges delete a backlog of expired rows, against the same sales while the purges
 * find nothing, alternating in one run on one service.
 *
 * The real service runs in this process (bench/http-load.ts) with its purge pass every
 * `--interval-ms`. Before each purging round's measured run, `--rows` expired idempotency records
 * (first used 48 hours ago, beyond the default 24-hour retention) and as many finished webhook
 * deliveries with one attempt each (40 days old, beyond the default 30 days) are inserted; the
 * purges start on them within one interval. The rows deleted during the run show that each purge
 * worked; the rows still there when it ends, that the purges ran for the whole of it.
 *
 * Usage: tsx bench/purges.ts [--database-url URL] [--seconds 10] [--connections 64]
 *                            [--rows 200000] [--rounds 2] [--interval-ms 200]
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../src/db/schema.ts";
import { createPayingClient, type Load, measure, type Measured, POOL_SIZE, rowsOf, saleBodies, startBenchService } from "./http-load.ts";
import { formatNumber, intOption, openTarget, printResults, type ResultRow, serverArgs } from "./support.ts";

/** Issue 28: purging costs keyed sales at most this share of their throughput. */
const GOAL_SLOWDOWN = 0.1;

const { values, serverUrl } = serverArgs(["seconds", "connections", "rows", "rounds", "interval-ms"]);
const seconds = intOption(values.seconds, 10, "seconds");
const connections = intOption(values.connections, 64, "connections");
const rows = intOption(values.rows, 200_000, "rows");
const rounds = intOption(values.rounds, 2, "rounds");
const intervalMs = intOption(values["interval-ms"], 200, "interval-ms");

/** Expired idempotency records and finished webhook deliveries (one attempt each), all past their retention. */
async function insertExpired(db: Kysely<Database>, count: number): Promise<void> {
  await sql`
    insert into idempotency_records (scope, idempotency_key, request_hash, status_code, response_body, response_headers, created_at, completed_at)
    select 'client:00000000-0000-0000-0000-000000000000', 'expired-' || gen_random_uuid(), 'bench', 201, '{}', '{}'::jsonb,
           now() - interval '48 hours', now() - interval '48 hours'
    from generate_series(1, ${count})
  `.execute(db);
  // Position 0: the outbox watermark the purge moves stays below every real event's position.
  await sql`
    with delivery as (
      insert into webhook_deliveries (delivery_id, endpoint_id, client_id, message_id, event_type, subject_id, position, ordinal,
                                      payload, status, attempts, next_attempt_at, created_at, updated_at)
      select gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'transaction.approved', gen_random_uuid(),
             0, 0, '{}', 'delivered', 1, now() - interval '40 days', now() - interval '40 days', now() - interval '40 days'
      from generate_series(1, ${count})
      returning delivery_id, endpoint_id
    )
    insert into webhook_attempts (attempt_id, delivery_id, endpoint_id, attempt, status, response_status, duration_ms, created_at)
    select gen_random_uuid(), delivery_id, endpoint_id, 1, 'delivered', 200, 12, now() - interval '40 days' from delivery
  `.execute(db);
}

async function expiredLeft(db: Kysely<Database>): Promise<{ records: number; deliveries: number }> {
  const { rows: counted } = await sql<{ records: number; deliveries: number }>`
    select (select count(*)::int from idempotency_records where scope = 'client:00000000-0000-0000-0000-000000000000') as records,
           (select count(*)::int from webhook_deliveries where position = 0) as deliveries
  `.execute(db);
  return counted[0] ?? { records: 0, deliveries: 0 };
}

interface Round {
  purging: boolean;
  measured: Measured;
  left: { records: number; deliveries: number };
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl, POOL_SIZE);
  const { db } = target.connection;
  try {
    const service = await startBenchService(target, { RETENTION_PURGE_INTERVAL_MS: String(intervalMs) });
    try {
      const { key } = await createPayingClient(service.url, "Bench");
      const load: Load = {
        url: `${service.url}/v1/transactions/sale`,
        headers: { authorization: `Bearer ${key}`, "idempotency-key": "bench-[<id>]" },
        bodies: saleBodies(),
        uniqueIds: true,
      };
      const measuredRounds: Round[] = [];
      for (let round = 0; round < rounds; round += 1) {
        for (const purging of [false, true]) {
          const name = purging ? `sales while purging ${formatNumber(rows)} + ${formatNumber(rows)} rows` : "sales, nothing to purge";
          const measured = await measure(name, load, { connections, seconds }, async () => {
            if (purging) await insertExpired(db, rows);
          });
          const left = await expiredLeft(db);
          measuredRounds.push({ purging, measured, left });
          // Whatever this round left is purged before the next baseline.
          const last = round === rounds - 1 && purging;
          while (!last && Object.values(await expiredLeft(db)).some((count) => count > 0)) await new Promise((resolve) => setTimeout(resolve, 500));
        }
      }
      const average = (purging: boolean) => {
        const chosen = measuredRounds.filter((round) => round.purging === purging);
        return chosen.reduce((sum, round) => sum + round.measured.perSecond, 0) / chosen.length;
      };
      const slowdown = 1 - average(true) / average(false);
      const results: ResultRow[] = [
        ...measuredRounds.flatMap((round, index) => [
          ...rowsOf(`round ${Math.floor(index / 2) + 1}: ${round.purging ? "purging" : "nothing to purge"}`, "keyed sales", round.measured),
          ...(round.purging
            ? [
                {
                  target: `round ${Math.floor(index / 2) + 1}: purging`,
                  metric: "expired records / deliveries purged during the run",
                  value: `${formatNumber(rows - round.left.records)} / ${formatNumber(rows - round.left.deliveries)}`,
                  goal: "> 0 each: both purges worked",
                  met: round.left.records < rows && round.left.deliveries < rows ? "yes" : "no",
                },
                {
                  target: `round ${Math.floor(index / 2) + 1}: purging`,
                  metric: "expired records / deliveries left at the run's end",
                  value: `${formatNumber(round.left.records)} / ${formatNumber(round.left.deliveries)} of ${formatNumber(rows)}`,
                  goal: "> 0: the purge ran throughout",
                  met: round.left.records > 0 || round.left.deliveries > 0 ? "yes" : "no",
                },
              ]
            : []),
        ]),
        {
          target: "keyed sales while purging vs nothing to purge",
          metric: "throughput lost (averages of the rounds)",
          value: `${formatNumber(slowdown * 100, 1)} %`,
          goal: `<= ${GOAL_SLOWDOWN * 100} %`,
          met: slowdown <= GOAL_SLOWDOWN ? "yes" : "no",
        },
      ];
      printResults(results);
    } finally {
      await service.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
