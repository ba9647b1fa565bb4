import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/ids.ts";
import { dueDeliveriesQuery, readDueDeliveries, useTheLooksPlan } from "../../src/jobs/webhook-due-deliveries.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { rowsExamined } from "../support/query-plans.ts";
import { insertWebhookDeliveries, insertWebhookEndpoint } from "../support/webhook-outbox.ts";

const PER_ENDPOINT = 32;
/** Subjects with two pending messages each (a sale's transaction.pending and transaction.approved). */
const BACKLOG_SUBJECTS = 2_000;

for (const target of testDatabaseTargets()) {
  describe(`the webhook dispatcher's look for due deliveries, on ${target}`, () => {
    let database: TestDatabase;
    let subjects: string[];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      const endpoint = await insertWebhookEndpoint(database.db);
      subjects = Array.from({ length: BACKLOG_SUBJECTS }, () => newId());
      // Statistics taken while nothing was pending, an outbox's usual state, then an outage's backlog.
      await insertWebhookDeliveries(database.db, endpoint, Array.from({ length: BACKLOG_SUBJECTS }, () => newId()), "delivered");
      await sql`analyze webhook_deliveries`.execute(database.db);
      await insertWebhookDeliveries(database.db, endpoint, subjects, "pending");
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
        return rowsExamined(trx, dueDeliveriesQuery([], PER_ENDPOINT));
      });
      // Each returned delivery passes through four plan nodes (the scan of the due index, the subject probe, the limit, the join).
      expect(examined).toBeLessThanOrEqual(PER_ENDPOINT * 8);
    });
  });
}
