import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import { type SettlementEvent, settlementEventTypes } from "../../domain/settlements/events.ts";
import { toSettlementView } from "../../domain/settlements/view.ts";
import type { Projection } from "../projection.ts";

/**
 * Settlement batches, as the API lists them once closed; an open one is kept too, so that a
 * batch whose opener died is found and finished. A batch's events are applied in order, each at
 * most once: opening inserts the row, closing or failing moves it on from `open` only.
 */
export const settlementsProjection: Projection = {
  name: "settlements",
  tables: ["settlements"],
  eventTypes: settlementEventTypes,
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as SettlementEvent;
      switch (event.type) {
        case "SettlementOpened.v1": {
          const { settlementId, clientId, processor, hostConfigurationId, localDate, cutoff, occurredAt } = event.data;
          await trx
            .insertInto("settlements")
            .values({
              settlement_id: settlementId,
              client_id: clientId,
              processor,
              host_configuration_id: hostConfigurationId,
              local_date: localDate,
              status: "open",
              cutoff: new Date(cutoff),
              opened_at: new Date(occurredAt),
              closed_at: null,
              view: null,
            })
            .onConflict((conflict) => conflict.column("settlement_id").doNothing())
            .execute();
          break;
        }
        case "SettlementClosed.v1": {
          const row = await trx
            .selectFrom("settlements")
            .select(["client_id", "processor", "host_configuration_id", "cutoff"])
            .where("settlement_id", "=", event.data.settlementId)
            .where("status", "=", "open")
            .executeTakeFirst();
          if (!row) break;
          const view = toSettlementView(
            {
              settlementId: event.data.settlementId,
              clientId: row.client_id,
              processor: row.processor as Processor,
              hostConfigurationId: row.host_configuration_id,
              cutoff: new Date(row.cutoff).toISOString(),
            },
            event.data,
          );
          await trx
            .updateTable("settlements")
            .set({ status: event.data.status, closed_at: new Date(event.data.occurredAt), view: sql`${JSON.stringify(view)}::jsonb` })
            .where("settlement_id", "=", event.data.settlementId)
            .execute();
          break;
        }
        case "SettlementFailed.v1":
          await trx
            .updateTable("settlements")
            .set({ status: "failed" })
            .where("settlement_id", "=", event.data.settlementId)
            .where("status", "=", "open")
            .execute();
          break;
      }
    }
  },
};

/** How many closed batches disagree with their processor's totals. */
export async function countMismatchedSettlements(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("settlements")
    .select((select) => select.fn.countAll<string>().as("count"))
    .where("status", "=", "mismatched")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
