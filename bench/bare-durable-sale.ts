/**
 * The bare durable sale of `bench:sales`, shared with `bench:capacity`: the least a sale that is
 * never lost must do, its intent inserted before the processor call and its outcome after, with
 * no read model, key, limit or hash chain; its inserts one statement each, or grouped across
 * overlapping requests as the service groups its appends.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { batchWhileBusy } from "../src/batching/batch-while-busy.ts";
import type { HostConfigurationView } from "../src/domain/host-configurations/decider.ts";
import { createConnectors } from "../src/processors/connectors.ts";
import { createHttpClient } from "../src/processors/http.ts";
import type { ProcessorOutcome } from "../src/processors/port.ts";
import { APPROVING_CARD, POOL_SIZE } from "./http-load.ts";

/** A `pg` pool of the service's size with a table of small rows to insert; closed by `end()`. */
export async function openBareInserts(databaseUrl: string) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_SIZE });
  pool.on("error", () => {});
  await pool.query(
    "create table bare_inserts (id uuid primary key, amount integer not null, status text not null, created_at timestamptz not null default now())",
  );
  type Inserted = { id: string; amount: number; created_at: Date };
  const answer = (row: Inserted | undefined) => {
    if (!row) throw new Error("the insert returned no row");
    return { id: row.id, amount: row.amount, createdAt: row.created_at.toISOString() };
  };
  // The inserts that arrive while one is in flight go together, in one statement and one commit,
  // as the service groups its appends.
  const insertTogether = batchWhileBusy(async (items: { id: string; amount: number; status: string }[]) => {
    const { rows } = await pool.query<Inserted>({
      name: "bare_insert_together",
      text: "insert into bare_inserts (id, amount, status) select * from unnest($1::uuid[], $2::integer[], $3::text[]) returning id, amount, created_at",
      values: [items.map((item) => item.id), items.map((item) => item.amount), items.map((item) => item.status)],
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return items.map((item) => answer(byId.get(item.id)));
  });
  return {
    /** Inserts one small row, one statement and one commit. */
    async insert(amount: number, status: string) {
      const { rows } = await pool.query<Inserted>({
        name: "bare_insert",
        text: "insert into bare_inserts (id, amount, status) values ($1, $2, $3) returning id, amount, created_at",
        values: [randomUUID(), amount, status],
      });
      return answer(rows[0]);
    },
    /** Inserts one small row together with those that arrive while an insert is in flight. */
    insertGrouped: (amount: number, status: string) => insertTogether({ id: randomUUID(), amount, status }),
    async end() {
      const { rows } = await pool.query<{ count: string }>("select count(*)::text as count from bare_inserts");
      console.log(`bare inserts: ${rows[0]?.count} rows inserted (warm-ups included)`);
      await pool.end();
    },
  };
}

/** Submits one approved USD sale through the real processor_a connector, as the service would. */
export function bareProcessorCall(simulatorUrl: string, timeoutMs: number, view: HostConfigurationView) {
  const { processor_a } = createConnectors({
    baseUrls: { processor_a: simulatorUrl, processor_b: simulatorUrl, processor_c: simulatorUrl, processor_d: simulatorUrl },
    http: createHttpClient({ timeoutMs }),
  });
  return (amount: number) =>
    processor_a.submit({
      operation: "sale",
      transactionId: randomUUID(),
      amount,
      currency: "USD",
      card: APPROVING_CARD,
      // processor_a takes no credentials.
      hostConfiguration: { view, credentials: null },
    });
}

type Insert = (amount: number, status: string) => Promise<{ id: string; amount: number; createdAt: string }>;

/** One durable sale: its intent inserted, the processor called, its outcome inserted, through `insert`. */
export async function sellDurably(insert: Insert, call: (amount: number) => Promise<ProcessorOutcome>, amount: number) {
  await insert(amount, "pending");
  const outcome = await call(amount);
  return { outcome, row: await insert(amount, outcome.kind) };
}
