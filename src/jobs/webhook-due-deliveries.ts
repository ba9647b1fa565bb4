import { type Kysely, type RawBuilder, sql, type Transaction } from "kysely";
import type { Database } from "../db/schema.ts";

/** A delivery the dispatcher may send now, with what sending it needs of its endpoint. */
export type DueDelivery = {
  deliveryId: string;
  endpointId: string;
  clientId: string;
  /** The endpoint's last change when it was read: a disable judged on it is void once it changed. */
  endpointUpdatedAt: Date;
  messageId: string;
  payload: string;
  /** The trace of the append that caused the message, when it was traced. */
  traceparent: string | null;
  attempts: number;
  roundStart: number;
  /** The delivery's redeliveries when it was read: one asked for during the attempt is not lost. */
  redeliveries: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
};

/**
 * Per enabled endpoint, its first `perEndpoint` due deliveries in order (next attempt, then log
 * position), leaving out those in `inFlight` and those waiting for an earlier pending delivery of
 * their subject (API.md: one transaction's events reach an endpoint in the order they happened).
 *
 * The earlier-delivery check is a subquery rather than `not exists`: as a subplan it always probes
 * the subject index with the row's values, where a join may scan every pending row of the endpoint.
 */
export function dueDeliveriesQuery(inFlight: readonly string[], perEndpoint: number): RawBuilder<DueDelivery> {
  return sql<DueDelivery>`
    select d.delivery_id as "deliveryId", d.endpoint_id as "endpointId", e.client_id as "clientId",
           e.updated_at as "endpointUpdatedAt",
           d.message_id as "messageId", d.payload, d.traceparent, d.attempts, d.round_start as "roundStart", d.redeliveries,
           e.url, e.secret, e.previous_secret as "previousSecret",
           e.previous_secret_expires_at as "previousSecretExpiresAt"
    from webhook_endpoints e
    cross join lateral (
      select * from webhook_deliveries d
      where d.endpoint_id = e.endpoint_id and d.status = 'pending' and d.next_attempt_at <= now()
        and not (d.delivery_id = any(array(select jsonb_array_elements_text(${JSON.stringify(inFlight)}::jsonb)::uuid)))
        and (
          select true from webhook_deliveries earlier
          where earlier.endpoint_id = d.endpoint_id and earlier.subject_id = d.subject_id and earlier.status = 'pending'
            and (earlier.position, earlier.ordinal) < (d.position, d.ordinal)
          limit 1
        ) is null
      order by d.next_attempt_at, d.position, d.ordinal
      limit ${perEndpoint}
    ) d
    where e.enabled and not e.deleted
  `;
}

/**
 * The plan the look must have whatever the table's statistics say: walk the due index in order
 * and stop at the limit. Statistics taken while nothing was pending (an outbox's usual state)
 * estimate a backlog at one row, and the planner then sorts every pending row of the endpoint on
 * each look: a look over 9,000 pending deliveries took 150 ms, and the drain slowed to a seventh
 * of its rate, exactly when an endpoint came back from an outage. JIT is off for the same reason:
 * the misjudged cost crosses its threshold and compiling alone took 25 ms.
 */
export async function useTheLooksPlan(trx: Transaction<Database>): Promise<void> {
  await sql`select set_config('enable_sort', 'off', true), set_config('jit', 'off', true)`.execute(trx);
}

export async function readDueDeliveries(db: Kysely<Database>, inFlight: readonly string[], perEndpoint: number): Promise<DueDelivery[]> {
  return db.transaction().execute(async (trx) => {
    await useTheLooksPlan(trx);
    const { rows } = await dueDeliveriesQuery(inFlight, perEndpoint).execute(trx);
    return rows;
  });
}
