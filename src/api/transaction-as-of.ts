import { z } from "zod";
import { type AuditEvent, occurredAtOf, toAuditEvent } from "../audit/event-log.ts";
import { chainCheckSchema, checkStreamLinks } from "../audit/link-checks.ts";
import { evolve, initialState, paymentDecider, paymentStreamId, type TransactionView, toTransactionView } from "../domain/payments/index.ts";
import type { EventStore } from "../eventstore/port.ts";
import { readEvents } from "../eventstore/typed-read.ts";
import { transactionSchema } from "./transaction-schema.ts";

const brokenEventSchema = z
  .object({ id: z.string(), streamId: z.string(), revision: z.number().int(), type: z.string(), chain: chainCheckSchema })
  .meta({ id: "BrokenEvent", description: "An event of the stream whose hash-chain link does not verify, as `/events` serves its `chain`" });

/**
 * GET /v1/transactions/{id}: with `asOf`, the fold also says whether the stream it read is
 * intact, as the events routes do, so an edited event is never answered as if it were not.
 */
export const transactionReadSchema = transactionSchema
  .extend({
    brokenLinks: z.number().int().optional().meta({
      description:
        "With `asOf` only: how many events of the transaction's stream have a hash-chain link that does not verify (0 when intact). " +
        "The state was folded from the events as they are stored: when not 0, do not rely on it before `ledger verify` explains the break.",
    }),
    brokenEvents: z.array(brokenEventSchema).optional().meta({ description: "With `asOf` only: the events counted in `brokenLinks`" }),
  })
  .meta({ id: "TransactionRead" });

export interface TransactionAsOf {
  /** Null when the transaction did not exist yet. */
  transaction: TransactionView | null;
  /** The events of its stream whose link does not verify, wherever they are in it. */
  brokenEvents: AuditEvent[];
}

/**
 * A transaction as it was at `asOf`, folded from its payment stream alone (never the read
 * model). The fold stops at the first event that happened after `asOf`, so the answer is always
 * a state the stream really passed through. "Happened" is the event's own `occurredAt` (the
 * clock that gave the transaction its createdAt and updatedAt, so `asOf=<updatedAt>` shows
 * exactly that version), or when it is missing the time the store recorded it.
 *
 * Every link of the stream is checked, not only those folded: an event deleted before `asOf`
 * shows only on the event after it, which may come later.
 */
export async function transactionAsOf(
  store: EventStore,
  paymentId: string,
  transactionId: string,
  asOf: Date,
): Promise<TransactionAsOf> {
  const events = await readEvents(store, paymentDecider.isEvent, paymentStreamId(paymentId));
  const checks = checkStreamLinks(events);
  let state = initialState();
  for (const event of events) {
    if (new Date(occurredAtOf(event)).getTime() > asOf.getTime()) break;
    state = evolve(state, event);
  }
  const brokenEvents = events.flatMap((event, index) => (checks[index]!.status === "broken" ? [toAuditEvent(event, checks[index]!)] : []));
  return { transaction: toTransactionView(state, transactionId), brokenEvents };
}
