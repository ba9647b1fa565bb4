/**
 * Transaction history (GET /v1/transactions) page latency on a large read model.
 *
 * The real service (startService) runs in this process on a fresh `ledger_bench_<random>`
 * PostgreSQL database; the clients and one API key each are created through the API. Then
 * `--transactions` rows are loaded straight into the `transactions` read model with one
 * set-based INSERT (payments of a root authorization or sale, many with a capture, refund or void;
 * every row's `view` shaped as the transactions projection writes it), spread over
 * `--users` users per client and the last 90 days, a few big clients and many small ones.
 *
 * Each scenario asks `--pages` pages of `--limit` rows, one request at a time on one keep-alive
 * connection, with a fresh random client, user, status or date window per request; the cursor
 * scenarios follow `nextCursor` and time pages 2..10. Each scenario is also timed as the route's
 * query alone (`listHistory` on the service's pool). Scenarios and both ways take turns request
 * by request, so other work on the machine weighs on all of them alike. Last, the first-page
 * scenarios are mixed and run with `--concurrency` connections from autocannon in a worker thread.
 *
 * Usage: tsx bench/history.ts [--database-url URL] [--transactions 1000000] [--clients 100]
 *          [--users 1000] [--pages 500] [--limit 20] [--concurrency 4] [--seconds 10]
 */
import { randomInt } from "node:crypto";
import { availableParallelism, loadavg } from "node:os";
import autocannon from "autocannon";
import { sql } from "kysely";
import { Pool } from "undici";
import { type HistoryFilter, listHistory } from "../src/api/routes/history.ts";
import { transactionTypes } from "../src/domain/payments/index.ts";
import { answersRow, call, startBenchService } from "./http-load.ts";
import { type BenchTarget, formatNumber, intOption, openTarget, percentile, printResults, type ResultRow, serverArgs } from "./support.ts";

const GOAL_P99_MS = 10;
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 90;
/** Share of transactions that are roots (authorizations and sales); the rest are their follow-ups. */
const ROOT_SHARE = 0.6;
/** Cursor scenarios time pages 2..LAST_PAGE of each walk. */
const LAST_PAGE = 10;
/** Per scenario, before timing: V8 optimises the hot paths, every pooled connection prepares its statements. */
const WARM_UP_PAGES = 100;
const statuses = ["approved", "declined", "failed", "pending"] as const;

const { values, serverUrl } = serverArgs(["transactions", "clients", "users", "pages", "limit", "concurrency", "seconds"]);
const transactions = intOption(values.transactions, 1_000_000, "transactions");
const clients = intOption(values.clients, 100, "clients");
const users = intOption(values.users, 1_000, "users");
const pages = intOption(values.pages, 500, "pages");
const limit = intOption(values.limit, 20, "limit");
const concurrency = intOption(values.concurrency, 4, "concurrency");
const seconds = intOption(values.seconds, 10, "seconds");
if (limit > 100) throw new Error("--limit must be at most 100");

interface BenchClient {
  clientId: string;
  key: string;
}

/** What a page asks for besides the client, the page size and the cursor. */
type Filter = Omit<HistoryFilter, "clientId" | "limit" | "cursor">;

interface Scenario {
  name: string;
  draw(): { client: BenchClient; filter: Filter };
  /** Pages before this one are fetched to get their cursor, not timed. */
  firstTimedPage: number;
  lastPage: number;
}

interface Page {
  rows: number;
  nextCursor: string | null;
}

type FetchPage = (client: BenchClient, filter: Filter, cursor: string | undefined) => Promise<Page>;

async function createClients(baseUrl: string): Promise<BenchClient[]> {
  const created: BenchClient[] = [];
  for (let i = 1; i <= clients; i += 1) {
    const client = await call(baseUrl, "POST", "/v1/clients", { name: `Bench client ${i}` });
    const clientId = String(client.id);
    const issued = await call(baseUrl, "POST", `/v1/clients/${clientId}/api-keys`, {});
    created.push({ clientId, key: String(issued.key) });
  }
  return created;
}

/**
 * One INSERT ... SELECT. `draw` rolls each payment's dice once; `payment` turns them into the root
 * authorization or sale (the first `followUps` payments are approved and get one capture, refund
 * or void, so the row count is exact); `follow` prices the follow-ups; `tx` lists roots and
 * follow-ups with what a follow-up does to its root; `detailed` rolls each row's decline code and
 * processor reference; the outer SELECT builds the API view.
 * Rows go in oldest first, as live traffic would have written them.
 */
async function loadTransactions(target: BenchTarget, clientIds: readonly string[]): Promise<void> {
  const payments = Math.round(transactions * ROOT_SHARE);
  const followUps = transactions - payments;
  await target.connection.db.transaction().execute(async (trx) => {
    // The sort of a million rows stays in memory; compiling this one-off statement would take longer than running it.
    await sql`set local work_mem = '1GB'`.execute(trx);
    await sql`set local jit = off`.execute(trx);
    await sql`
      insert into transactions (transaction_id, payment_id, client_id, type, status, user_id, processor, currency,
        amount, reference, created_at, updated_at, host_configuration_id, awaiting_settlement, capturable_since, view)
      with draw as materialized (
        select p, random() as r_client, random() as r_user, random() as r_type, random() as r_status,
          random() as r_processor, random() as r_currency, random() as r_amount, random() as r_card, random() as r_order,
          random() as r_follow_type, random() as r_follow_status, random() as r_follow_amount,
          now() - random() * ${HISTORY_DAYS}::int * interval '1 day' as created_at,
          random() * interval '3 days' as follow_delay,
          (80 + random() * 900) * interval '1 millisecond' as latency
        from generate_series(1, ${payments}::int) as p
      ),
      payment as materialized (
        select p, created_at, latency, r_follow_amount,
          -- The payment's stream is named after its root transaction.
          ${uuidV7("created_at", "2 * p")} as transaction_id,
          -- power() > 1 skews toward the first clients: a few big ones, many small ones.
          (${clientIds}::uuid[])[1 + floor(${clientIds.length}::int * power(r_client, 1.6))::int] as client_id,
          'user_' || (1 + floor(r_user * ${users}::int)::int) as user_id,
          case when p <= ${followUps}::int
            then case when r_type < 0.8 then 'authorization' else 'sale' end
            else case when r_type < 0.1 then 'authorization' else 'sale' end
          end as type,
          case
            when p <= ${followUps}::int or r_status < 0.6 then 'approved'
            when r_status < 0.88 then 'declined'
            when r_status < 0.97 then 'failed'
            else 'pending'
          end as status,
          case when r_processor < 0.4 then 'processor_a' when r_processor < 0.7 then 'processor_b'
            when r_processor < 0.9 then 'processor_c' else 'processor_d' end as processor,
          case when r_currency < 0.7 then 'USD' when r_currency < 0.9 then 'EUR' else 'GBP' end as currency,
          100 + floor(power(r_amount, 3) * 250000)::bigint as amount,
          case when r_order < 0.6 then 'order-' || p end as reference,
          1 + floor(r_card * 4)::int as card,
          case when p <= ${followUps}::int then case when r_type < 0.8
            then case when r_follow_type < 0.9 then 'capture' else 'void' end
            else case when r_follow_type < 0.7 then 'refund' else 'void' end
          end end as follow_type,
          case when r_follow_status < 0.96 then 'approved' when r_follow_status < 0.98 then 'declined'
            when r_follow_status < 0.995 then 'failed' else 'pending' end as follow_status,
          least(now(), created_at + follow_delay) as follow_created_at
        from draw
      ),
      follow as materialized (
        select p, transaction_id as parent_id, client_id, user_id, processor, currency, latency, follow_type,
          follow_status, follow_created_at, ${uuidV7("follow_created_at", "2 * p + 1")} as follow_id,
          case follow_type
            when 'capture' then case when r_follow_amount < 0.8 then amount else ceil(amount * r_follow_amount)::bigint end
            when 'refund' then ceil(amount * r_follow_amount)::bigint
            else amount
          end as follow_amount
        from payment
        where follow_type is not null
      ),
      tx as (
        select payment.transaction_id, null::uuid as parent_id, payment.client_id, payment.type, payment.status,
          payment.user_id, payment.processor, payment.currency, payment.amount, payment.reference, payment.card,
          payment.created_at,
          case
            when payment.status = 'pending' then payment.created_at
            when follow.follow_status = 'approved' then follow.follow_created_at + follow.latency
            else payment.created_at + payment.latency
          end as updated_at,
          case
            when payment.type = 'sale' and payment.status = 'approved' then payment.amount
            when follow.follow_type = 'capture' and follow.follow_status = 'approved' then follow.follow_amount
            else 0
          end as captured_amount,
          case when follow.follow_type = 'refund' and follow.follow_status = 'approved' then follow.follow_amount else 0 end
            as refunded_amount,
          coalesce(follow.follow_type = 'void' and follow.follow_status = 'approved', false) as voided
        from payment left join follow using (p)
        union all
        select follow_id, parent_id, client_id, follow_type, follow_status, user_id, processor, currency, follow_amount,
          null, null, follow_created_at,
          case when follow_status = 'pending' then follow_created_at else follow_created_at + latency end,
          case when follow_type = 'capture' and follow_status = 'approved' then follow_amount else 0 end,
          0, false
        from follow
      ),
      detailed as materialized (
        select tx.*, coalesce(parent_id, transaction_id) as payment_id, md5(transaction_id::text) as hash,
          1 + floor(power(random(), 2) * 4)::int as decline, random() as r_reference
        from tx
      )
      select transaction_id, payment_id, client_id, type, status, user_id, processor, currency, amount, reference,
        created_at, updated_at, ${hostConfigurationId},
        -- No event streams stand behind these rows: nothing for the settlement and expiry jobs to take up.
        false, null,
        jsonb_build_object(
          'id', transaction_id, 'type', type, 'status', status, 'clientId', client_id, 'userId', user_id,
          'processor', processor, 'hostConfigurationId', ${hostConfigurationId},
          'amount', amount, 'currency', currency, 'parentTransactionId', parent_id,
          'card', case when card is not null then jsonb_build_object(
            'brand', (array['visa', 'mastercard', 'amex', 'discover'])[card],
            'last4', (array['4242', '4444', '0005', '1117'])[card],
            'expMonth', 1 + card * 2, 'expYear', 2027 + card,
            'fingerprint', 'fp_1_' || rtrim(translate(encode(sha256(convert_to(user_id || card, 'UTF8')), 'base64'), '+/', '-_'), '=')
          ) end,
          'declineCode', case when status = 'declined'
            then (array['card_declined', 'insufficient_funds', 'expired_card', 'incorrect_cvc'])[decline] end,
          'processorResponse', case
            when status = 'approved' then jsonb_build_object('code', '00', 'message', 'Approved',
              'authorizationCode', upper(substr(hash, 1, 6)), 'reference', processor_reference)
            when status = 'declined' then jsonb_build_object('code', (array['05', '51', '54', 'N7'])[decline],
              'message', (array['Do not honor', 'Insufficient funds', 'Expired card', 'CVC mismatch'])[decline],
              'authorizationCode', null, 'reference', processor_reference)
            when status = 'failed' then jsonb_build_object('code', '96', 'message', 'System malfunction',
              'authorizationCode', null, 'reference', processor_reference)
          end,
          'failureReason', case when status = 'failed' then 'processor_error' end,
          'capturedAmount', captured_amount, 'refundedAmount', refunded_amount, 'voided', voided,
          'settledAt', null, 'settlementId', null, 'expiredAt', null,
          'reference', reference,
          'metadata', case when reference is null then '{}'::jsonb else jsonb_build_object('orderId', substr(reference, 7)) end,
          'createdAt', ${isoTimestamp("created_at")}, 'updatedAt', ${isoTimestamp("updated_at")}
        )
      from detailed,
        -- Each processor's own style of reference (src/processors/simulator/references.ts).
        lateral (
          select case processor
            when 'processor_a' then lpad(floor(r_reference * 1e12)::bigint::text, 12, '0')
            when 'processor_b' then 'B' || lpad(floor(r_reference * 1e15)::bigint::text, 15, '0')
            when 'processor_c' then lpad(floor(r_reference * 1e9)::bigint::text, 9, '0') || 'C-' || upper(substr(hash, 7, 16))
            else 'pd_' || substr(hash, 7, 24)
          end as processor_reference
        ) as response
      order by created_at`.execute(trx);
  });
}

/**
 * A UUIDv7: the millisecond of the timestamp in `column`, then `serial` where the random bits
 * would be, so ids sort by time and never collide.
 */
const uuidV7 = (column: string, serial: string) =>
  sql.raw(`(lpad(to_hex(floor(extract(epoch from ${column}) * 1000)::bigint), 12, '0') || '70008'
    || lpad(to_hex(${serial}), 15, '0'))::uuid`);

/** A UUIDv4-shaped id from 32 hex digits. */
const uuidV4 = (hex: string) =>
  sql.raw(`(substr(${hex}, 1, 12) || '4' || substr(${hex}, 14, 3) || '8' || substr(${hex}, 18, 15))::uuid`);

/** The same client and processor always get the same host configuration. */
const hostConfigurationId = uuidV4("md5(client_id::text || processor)");

const isoTimestamp = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const pick = <T>(items: readonly T[]): T => {
  const item = items[randomInt(items.length)];
  if (item === undefined) throw new Error("nothing to pick from");
  return item;
};

/** A window of 1 to 30 days inside the loaded 90. */
function dateWindow(now: number): Filter {
  const length = randomInt(DAY_MS, 30 * DAY_MS);
  const to = now - randomInt(HISTORY_DAYS * DAY_MS - length);
  return { createdFrom: new Date(to - length), createdTo: new Date(to) };
}

function scenarios(benchClients: readonly BenchClient[], now: number): Scenario[] {
  const client = () => pick(benchClients);
  const single = { firstTimedPage: 1, lastPage: 1 };
  const walk = { firstTimedPage: 2, lastPage: LAST_PAGE };
  return [
    { name: "client (no filter)", draw: () => ({ client: client(), filter: {} }), ...single },
    { name: "client + date range", draw: () => ({ client: client(), filter: dateWindow(now) }), ...single },
    {
      name: "client + userId + type",
      draw: () => ({ client: client(), filter: { userId: `user_${randomInt(1, users + 1)}`, type: pick(transactionTypes) } }),
      ...single,
    },
    { name: "client + status", draw: () => ({ client: client(), filter: { status: pick(statuses) } }), ...single },
    {
      name: `client + date range, pages 2-${LAST_PAGE}`,
      draw: () => ({ client: client(), filter: dateWindow(now) }),
      ...walk,
    },
    {
      name: `client + status, pages 2-${LAST_PAGE}`,
      draw: () => ({ client: client(), filter: { status: pick(statuses) } }),
      ...walk,
    },
  ];
}

function queryString(filter: Filter, cursor: string | undefined): string {
  const params = new URLSearchParams({ limit: String(limit) });
  for (const [name, value] of Object.entries(filter)) {
    if (value !== undefined) params.set(name, value instanceof Date ? value.toISOString() : String(value));
  }
  if (cursor !== undefined) params.set("cursor", cursor);
  return params.toString();
}

/** GET /v1/transactions on one keep-alive connection, body read and parsed. */
function httpPages(pool: Pool): FetchPage {
  return async (client, filter, cursor) => {
    const response = await pool.request({
      method: "GET",
      path: `/v1/transactions?${queryString(filter, cursor)}`,
      headers: { authorization: `Bearer ${client.key}` },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`GET /v1/transactions answered ${response.statusCode}: ${text}`);
    const page = JSON.parse(text) as { data: unknown[]; nextCursor: string | null };
    return { rows: page.data.length, nextCursor: page.nextCursor };
  };
}

/** The route's query alone, on the service's pool. */
function queryPages(target: BenchTarget): FetchPage {
  return async (client, filter, cursor) => {
    const page = JSON.parse(await listHistory(target.connection.db, { ...filter, clientId: client.clientId, limit, cursor })) as {
      data: unknown[];
      nextCursor: string | null;
    };
    return { rows: page.data.length, nextCursor: page.nextCursor };
  };
}

interface TimedPage {
  elapsed: number;
  rows: number;
}

interface Timed {
  latencies: number[];
  rows: number;
}

/** A scenario's timed pages, without end: a walk that runs out of pages starts another. */
async function* timedPages(scenario: Scenario, fetchPage: FetchPage): AsyncGenerator<TimedPage, never> {
  for (;;) {
    const { client, filter } = scenario.draw();
    let cursor: string | undefined;
    for (let page = 1; page <= scenario.lastPage; page += 1) {
      const started = performance.now();
      const result = await fetchPage(client, filter, cursor);
      const elapsed = performance.now() - started;
      if (page >= scenario.firstTimedPage) yield { elapsed, rows: result.rows };
      if (result.nextCursor === null) break;
      cursor = result.nextCursor;
    }
  }
}

/**
 * `rounds` pages from each source, one request at a time, taking turns so that whatever else
 * the machine is doing meanwhile weighs on every source alike.
 */
async function takeTurns<T extends { pages: AsyncGenerator<TimedPage, never> }>(
  sources: readonly T[],
  rounds: number,
): Promise<(T & Timed)[]> {
  const runs = sources.map((source) => ({ ...source, latencies: [] as number[], rows: 0 }));
  for (let round = 0; round < rounds; round += 1) {
    for (const run of runs) {
      const { value } = await run.pages.next();
      run.latencies.push(value.elapsed);
      run.rows += value.rows;
    }
  }
  return runs;
}

const ms = (value: number) => formatNumber(value, 2);

function latencyRow(target: string, what: string, { latencies, rows }: Timed, goal: boolean): ResultRow {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 0.99);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return {
    target,
    metric: `${what} p50 / p99 / mean (${sorted.length} pages, ${formatNumber(rows / sorted.length, 1)} rows avg)`,
    value: `${ms(percentile(sorted, 0.5))} / ${ms(p99)} / ${ms(mean)} ms`,
    goal: goal ? `p99 < ${GOAL_P99_MS} ms` : "-",
    met: goal ? (p99 < GOAL_P99_MS ? "yes" : "no") : "-",
  };
}

/** The first-page scenarios, mixed, with `concurrency` connections from a worker thread. */
async function concurrentRun(baseUrl: string, mix: readonly Scenario[]): Promise<ResultRow[]> {
  const requests: autocannon.Request[] = Array.from({ length: 2_000 }, (_, i) => {
    const scenario = mix[i % mix.length];
    if (!scenario) throw new Error("no scenario to mix");
    const { client, filter } = scenario.draw();
    return {
      method: "GET",
      path: `/v1/transactions?${queryString(filter, undefined)}`,
      headers: { authorization: `Bearer ${client.key}` },
    };
  });
  const loopBefore = performance.eventLoopUtilization();
  const result = await autocannon({ url: baseUrl, connections: concurrency, duration: seconds, workers: 1, requests });
  const loop = performance.eventLoopUtilization(loopBefore);
  const target = `first pages mixed, ${concurrency} connections`;
  return [
    { target, metric: `pages/s (${seconds} s)`, value: formatNumber(result["2xx"] / result.duration), goal: "-", met: "-" },
    {
      target,
      metric: "service event loop busy (per page)",
      value: `${formatNumber(loop.utilization * 100)} % (${ms(loop.active / Math.max(1, result["2xx"]))} ms)`,
      goal: "-",
      met: "-",
    },
    {
      target,
      metric: "HTTP p50 / p99 / mean",
      value: `${ms(result.latency.p50)} / ${ms(result.latency.p99)} / ${ms(result.latency.average)} ms`,
      goal: "-",
      met: "-",
    },
    answersRow(target, result),
  ];
}

async function loadRows(target: BenchTarget, clientIds: readonly string[]): Promise<ResultRow[]> {
  const { db } = target.connection;
  let started = performance.now();
  await loadTransactions(target, clientIds);
  const loadSeconds = (performance.now() - started) / 1_000;
  console.log(`loaded ${formatNumber(transactions)} transactions in ${formatNumber(loadSeconds, 1)} s`);
  // Vacuum now so autovacuum, which a million new rows would start, does not run during the timing.
  started = performance.now();
  await sql`vacuum (analyze) transactions`.execute(db);
  const vacuumSeconds = (performance.now() - started) / 1_000;
  console.log(`vacuum (analyze) in ${formatNumber(vacuumSeconds, 1)} s`);

  const { rows } = await sql<{ rows: string; biggest: string; smallest: string; heap: string; indexes: string }>`
    with per_client as (select count(*) as n from transactions group by client_id)
    select (select count(*) from transactions)::text as rows,
      (select max(n) from per_client)::text as biggest, (select min(n) from per_client)::text as smallest,
      pg_size_pretty(pg_table_size('transactions')) as heap, pg_size_pretty(pg_indexes_size('transactions')) as indexes
  `.execute(db);
  const stats = rows[0];
  if (!stats || Number(stats.rows) !== transactions) throw new Error(`expected ${transactions} rows, found ${stats?.rows}`);
  const row = (metric: string, value: string): ResultRow => ({ target: "load", metric, value, goal: "-", met: "-" });
  return [
    row(`insert ... select of ${formatNumber(transactions)} transactions`, `${formatNumber(loadSeconds, 1)} s`),
    row("vacuum (analyze)", `${formatNumber(vacuumSeconds, 1)} s`),
    row(
      `rows per client (${clientIds.length} clients, ${formatNumber(users)} users each)`,
      `${formatNumber(Number(stats.smallest))} to ${formatNumber(Number(stats.biggest))}`,
    ),
    row("table / indexes size", `${stats.heap} / ${stats.indexes}`),
  ];
}

async function main(): Promise<void> {
  const target = await openTarget("postgres", serverUrl);
  try {
    // The loaded pending transactions have no event streams: keep the resolver from asking about them.
    const service = await startBenchService(target, { PENDING_RESOLVER_INTERVAL_MS: String(24 * 3_600_000) });
    const pool = new Pool(service.url, { connections: 1 });
    try {
      const started = performance.now();
      const benchClients = await createClients(service.url);
      console.log(`created ${clients} clients and keys in ${formatNumber((performance.now() - started) / 1_000, 1)} s`);
      const results = await loadRows(target, benchClients.map((client) => client.clientId));

      const all = scenarios(benchClients, Date.now());
      const ways = [
        { what: "HTTP", fetchPage: httpPages(pool), goal: true },
        { what: "query alone", fetchPage: queryPages(target), goal: false },
      ];
      const sources = all.flatMap((scenario) =>
        ways.map(({ what, fetchPage, goal }) => ({ name: scenario.name, what, goal, pages: timedPages(scenario, fetchPage) })),
      );
      await takeTurns(sources, WARM_UP_PAGES);
      console.log(`${all.length} scenarios, ${pages} pages each over HTTP and as the query alone...`);
      // Other work on the machine shows in the tail latencies: say how busy it was.
      const loadBefore = loadavg()[0] ?? 0;
      for (const run of await takeTurns(sources, pages)) results.push(latencyRow(run.name, run.what, run, run.goal));
      results.push({
        target: "machine",
        metric: `load average (1 min) before / after the sequential pages, ${availableParallelism()} CPUs`,
        value: `${formatNumber(loadBefore, 2)} / ${formatNumber(loadavg()[0] ?? 0, 2)}`,
        goal: "-",
        met: "-",
      });
      console.log(`concurrent: ${concurrency} connections, ${seconds} s...`);
      results.push(...(await concurrentRun(service.url, all.filter((scenario) => scenario.lastPage === 1))));
      printResults(results);
    } finally {
      await pool.close();
      await service.stop();
    }
  } finally {
    await target.close();
  }
}

await main();
