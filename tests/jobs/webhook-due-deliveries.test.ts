import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/ids.ts";
import { dueDeliveriesQuery, readDueDeliveries, useTheLooksPlan } from "../../src/jobs/webhook-due-deliveries.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";

const PER_ENDPOINT = 32;
/** Subjects with two pending messages each (a sale's transaction.pending and transaction.approved). */
const BACKLOG_SUBJECTS = 2_000;

type PlanNode = { "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** Every row a plan's nodes produced or filtered out, over all their loops: what the look examined. */
function rowsExamined(node: PlanNode): number {
  const own = (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"];
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsExamined(child), 0);
}

for (const target of testDatabaseTargets()) {
  describe(`the webhook dispatcher's look for due deliveries, on ${target}`, () => {
    let database: TestDatabase;
    let endpointId: string;
    let subjects: string[];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      endpointId = newId();
      const clientId = newId();
      await sql`
        insert into webhook_endpoints (endpoint_id, client_id, url, events, enabled, deleted, secret, created_at, updated_at, revision)
        values (${endpointId}, ${clientId}, 'https://merchant.example/hooks', '["*"]', true, false, 'sealed', now(), now(), 0)
      `.execute(database.db);
      subjects = Array.from({ length: BACKLOG_SUBJECTS }, () => newId());
      const deliveriesOf = (subjectIds: string[], status: "delivered" | "pending") => sql`
        insert into webhook_deliveries (delivery_id, endpoint_id, client_id, message_id, event_type, subject_id, position,
                                        ordinal, payload, status, next_attempt_at)
        select gen_random_uuid(), ${endpointId}, ${clientId}, gen_random_uuid(),
               case when m.ordinal = 0 then 'transaction.pending' else 'transaction.approved' end,
               s.subject_id::uuid, s.i * 2 + m.ordinal, m.ordinal, '{}', ${status}, now() - interval '1 minute'
        from jsonb_array_elements_text(${JSON.stringify(subjectIds)}::jsonb) with ordinality as s(subject_id, i)
        cross join (values (0), (1)) as m(ordinal)
      `;
      // Statistics taken while nothing was pending, an outbox's usual state, then an outage's backlog.
      await deliveriesOf(Array.from({ length: BACKLOG_SUBJECTS }, () => newId()), "delivered").execute(database.db);
      await sql`analyze webhook_deliveries`.execute(database.db);
      await deliveriesOf(subjects, "pending").execute(database.db);
    });

    afterEach(async () => {
      await database.close();
    });

    it("reads a subject's first pending message only, in log order, up to the limit", async () => {
      const due = await readDueDeliveries(database.db, [], PER_ENDPOINT);
      const rows = await sql<{ deliveryId: string; subjectId: string; ordinal: number }>`
        select delivery_id as "deliveryId", subject_id as "subjectId", ordinal from webhook_deliveries
        where delivery_id = any(${due.map((delivery) => delivery.deliveryId)}::uuid[])
      `.execute(database.db);
      const byId = new Map(rows.rows.map((row) => [row.deliveryId, row]));
      expect(due.map((delivery) => byId.get(delivery.deliveryId)?.subjectId)).toEqual(subjects.slice(0, PER_ENDPOINT));
      expect(due.every((delivery) => byId.get(delivery.deliveryId)?.ordinal === 0)).toBe(true);
    });

    it("leaves out what is in flight, and a subject's later message while its earlier one is", async () => {
      const first = await readDueDeliveries(database.db, [], 2);
      const next = await readDueDeliveries(database.db, first.map((delivery) => delivery.deliveryId), 2);
      const subjectsOf = async (ids: string[]) =>
        (await sql<{ subjectId: string }>`
          select subject_id as "subjectId" from webhook_deliveries where delivery_id = any(${ids}::uuid[]) order by position
        `.execute(database.db)).rows.map((row) => row.subjectId);
      expect(await subjectsOf(next.map((delivery) => delivery.deliveryId))).toEqual(subjects.slice(2, 4));
    });

    it(`examines rows in proportion to the limit, not to a backlog of ${BACKLOG_SUBJECTS * 2} the statistics do not know of`, async () => {
      const examined = await database.db.transaction().execute(async (trx) => {
        await useTheLooksPlan(trx);
        const { rows } = await sql<{ "QUERY PLAN": [{ Plan: PlanNode }] }>`
          explain (analyze, format json) ${dueDeliveriesQuery([], PER_ENDPOINT)}
        `.execute(trx);
        return rowsExamined(rows[0]!["QUERY PLAN"][0].Plan);
      });
      // Each returned delivery passes through four plan nodes (the scan of the due index, the subject probe, the limit, the join).
      expect(examined).toBeLessThanOrEqual(PER_ENDPOINT * 8);
    });
  });
}
