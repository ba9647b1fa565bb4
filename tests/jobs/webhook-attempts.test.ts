import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/ids.ts";
import { type AttemptRow, recordAttemptsStatement } from "../../src/jobs/webhook-attempts.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { rowsExamined } from "../support/query-plans.ts";
import { insertWebhookDeliveries, insertWebhookEndpoint } from "../support/webhook-outbox.ts";

/** Delivered messages kept in the outbox (until their retention ends), two a subject. */
const DELIVERED_SUBJECTS = 2_000;
/** The attempts of one batch: ten subjects' two messages. */
const BATCH_SUBJECTS = 10;

type Delivery = { delivery_id: string; attempts: number; redeliveries: number };

for (const target of testDatabaseTargets()) {
  describe(`recording the webhook dispatcher's attempts, on ${target}`, () => {
    let database: TestDatabase;
    let endpointId: string;
    let batch: Delivery[];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      const endpoint = await insertWebhookEndpoint(database.db);
      endpointId = endpoint.endpointId;
      await insertWebhookDeliveries(database.db, endpoint, Array.from({ length: DELIVERED_SUBJECTS }, () => newId()), "delivered");
      await insertWebhookDeliveries(database.db, endpoint, Array.from({ length: BATCH_SUBJECTS }, () => newId()), "pending");
      await sql`analyze webhook_deliveries`.execute(database.db);
      batch = (
        await sql<Delivery>`
          select delivery_id, attempts, redeliveries from webhook_deliveries where status = 'pending' order by position
        `.execute(database.db)
      ).rows;
    });

    afterEach(async () => {
      await database.close();
    });

    /** Every other delivery of the batch delivered, the rest answered 503 and due again in a minute. */
    const attempts = (): AttemptRow[] =>
      batch.map((delivery, index) => ({
        attempt_id: newId(),
        delivery_id: delivery.delivery_id,
        endpoint_id: endpointId,
        attempt: delivery.attempts + 1,
        redeliveries: delivery.redeliveries,
        duration_ms: 12,
        error: null,
        ...(index % 2 === 0
          ? { status: "delivered", response_status: 204, retry_in_ms: null }
          : { status: "pending", response_status: 503, retry_in_ms: 60_000 }),
      }));
    const now = () => new Date();
    const longAgo = () => new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);

    const countsByStatus = async () =>
      (
        await sql<{ status: string; count: number }>`
          select status, count(*)::int as count from webhook_deliveries group by status order by status
        `.execute(database.db)
      ).rows;

    it("logs each attempt and moves its delivery on, and only the batch's deliveries", async () => {
      expect(await countsByStatus()).toEqual([
        { status: "delivered", count: DELIVERED_SUBJECTS * 2 },
        { status: "pending", count: BATCH_SUBJECTS * 2 },
      ]);

      const { rows: failingTooLong } = await recordAttemptsStatement(attempts(), now(), longAgo()).execute(database.db);

      expect(failingTooLong).toEqual([]);
      const after = await sql<{ delivery_id: string; status: string; attempts: number; due_in_s: number }>`
        select delivery_id, status, attempts, extract(epoch from next_attempt_at - updated_at)::int as due_in_s
        from webhook_deliveries where delivery_id = any(${batch.map((delivery) => delivery.delivery_id)}::uuid[])
      `.execute(database.db);
      const byId = new Map(after.rows.map((row) => [row.delivery_id, row]));
      batch.forEach((delivery, index) => {
        const row = byId.get(delivery.delivery_id)!;
        expect(row.attempts).toBe(1);
        if (index % 2 === 0) expect(row.status).toBe("delivered");
        else expect(row).toMatchObject({ status: "pending", due_in_s: 60 });
      });
      expect(await countsByStatus()).toEqual([
        { status: "delivered", count: DELIVERED_SUBJECTS * 2 + BATCH_SUBJECTS },
        { status: "pending", count: BATCH_SUBJECTS },
      ]);
      const logged = await sql<{ count: number }>`select count(*)::int as count from webhook_attempts`.execute(database.db);
      expect(logged.rows[0]!.count).toBe(BATCH_SUBJECTS * 2);
    });

    it(`examines rows in proportion to the batch, not to the ${DELIVERED_SUBJECTS * 2} delivered rows kept in the outbox`, async () => {
      const examined = await rowsExamined(database.db, recordAttemptsStatement(attempts(), now(), longAgo()));
      // Each attempt passes through a dozen plan nodes at most (the batch read, its scans, the log's
      // insert, the deliveries' lookup and update, the streaks); a scan of the outbox is thousands.
      expect(examined).toBeLessThanOrEqual(BATCH_SUBJECTS * 2 * 12);
    });
  });
}
