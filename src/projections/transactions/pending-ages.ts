import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";

/** Pending transactions by age since their intent (`<1m`, `1m-10m`, `10m-1h`, `>=1h`), and the oldest one's age. */
export interface PendingAges {
  byAge: Record<"<1m" | "1m-10m" | "10m-1h" | ">=1h", number>;
  oldestSeconds: number;
}

/** Counts the read model's pending transactions by age as of `now`, in one aggregate. */
export async function countPendingByAge(db: Kysely<Database>, now: Date): Promise<PendingAges> {
  const age = sql`${now}::timestamptz - created_at`;
  const { rows } = await sql<{ m1: number; m10: number; h1: number; older: number; oldest: number }>`
    select count(*) filter (where ${age} < interval '1 minute')::int as m1,
           count(*) filter (where ${age} >= interval '1 minute' and ${age} < interval '10 minutes')::int as m10,
           count(*) filter (where ${age} >= interval '10 minutes' and ${age} < interval '1 hour')::int as h1,
           count(*) filter (where ${age} >= interval '1 hour')::int as older,
           coalesce(extract(epoch from max(${age})), 0)::float8 as oldest
    from transactions where resolver_work is not null and status = 'pending'
  `.execute(db);
  const row = rows[0] ?? { m1: 0, m10: 0, h1: 0, older: 0, oldest: 0 };
  return {
    byAge: { "<1m": row.m1, "1m-10m": row.m10, "10m-1h": row.h1, ">=1h": row.older },
    oldestSeconds: Math.max(0, row.oldest),
  };
}
