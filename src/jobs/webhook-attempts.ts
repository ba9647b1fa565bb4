import { type RawBuilder, sql } from "kysely";

/** One attempt at a delivery, as the dispatcher records it. */
export interface AttemptRow {
  attempt_id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  /** The delivery's status after the attempt: delivered, pending (a retry in `retry_in_ms`) or failed. */
  status: "delivered" | "pending" | "failed";
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  retry_in_ms: number | null;
  /** The delivery's redeliveries when it was read: one asked for during the attempt is not lost. */
  redeliveries: number;
}

/**
 * Records a batch of attempts in one statement, so one round trip and atomic alone: the attempts,
 * the deliveries moved on, each endpoint's failing streak (a delivery ends it, a failure starts one
 * at `now` when none runs). Returns the endpoints whose streak, counted from their last change at the
 * latest, began at or before `failingSinceAtMost`. The final select sees the streaks as they were
 * before the statement. A redelivery asked for while the attempt ran stands: the delivery is due
 * again, on a new schedule.
 *
 * The deliveries are found through "= any(array(...))", which keeps their lookup on the primary
 * key in every plan. Joined on the batch alone (which the planner guesses at a hundred rows), the
 * outbox was scanned whole, delivered rows included, on every batch while it held some thousands
 * of rows or more than its statistics knew of: 14,000 rows and 11 ms for 19 attempts in
 * `bench:webhooks`.
 */
export function recordAttemptsStatement(
  rows: readonly AttemptRow[],
  now: Date,
  failingSinceAtMost: Date,
): RawBuilder<{ endpointId: string }> {
  return sql<{ endpointId: string }>`
    with attempt as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as row(attempt_id uuid, delivery_id uuid, endpoint_id uuid, attempt int, status text, response_status int,
               duration_ms int, error text, retry_in_ms bigint, redeliveries int)
    ), logged as (
      insert into webhook_attempts (attempt_id, delivery_id, endpoint_id, attempt, status, response_status, duration_ms,
                                    error, next_attempt_at, created_at)
      select attempt_id, delivery_id, endpoint_id, attempt, status, response_status, duration_ms, error,
             now() + retry_in_ms * interval '1 millisecond', now()
      from attempt
    ), moved_on as (
      update webhook_deliveries d
      set attempts = row.attempt,
          status = case when d.redeliveries = row.redeliveries then row.status else 'pending' end,
          round_start = case when d.redeliveries = row.redeliveries then d.round_start else row.attempt end,
          next_attempt_at = case when d.redeliveries = row.redeliveries
                                 then coalesce(now() + row.retry_in_ms * interval '1 millisecond', d.next_attempt_at)
                                 else now() end,
          updated_at = now()
      from attempt row
      where d.delivery_id = any(array(select delivery_id from attempt)) and d.delivery_id = row.delivery_id
    ), outcome as (
      select endpoint_id, bool_or(status = 'delivered') as delivered from attempt group by endpoint_id
    ), ended as (
      delete from webhook_endpoint_failures f using outcome o where f.endpoint_id = o.endpoint_id and o.delivered
    ), started as (
      insert into webhook_endpoint_failures (endpoint_id, failing_since)
      select endpoint_id, ${now.toISOString()}::timestamptz from outcome where not delivered
      on conflict (endpoint_id) do nothing
    )
    select f.endpoint_id as "endpointId"
    from webhook_endpoint_failures f
    join outcome o on o.endpoint_id = f.endpoint_id and not o.delivered
    join webhook_endpoints e on e.endpoint_id = f.endpoint_id
    where greatest(f.failing_since, e.updated_at) <= ${failingSinceAtMost.toISOString()}::timestamptz
  `;
}
