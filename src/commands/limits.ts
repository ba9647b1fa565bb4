import { type CurrencyLimit, limitHeldBy, utcDay } from "../domain/limits/limits.ts";
import { breachOf, type LimitBreach, type LimitUsage, reservationIdOf } from "../domain/limits/usage.ts";
import { type PaymentState, paymentStreamId } from "../domain/payments/index.ts";
import type { RecordedEvent } from "../eventstore/port.ts";
import { newId } from "../ids.ts";
import { inSpan } from "../telemetry/spans.ts";
import type { CommandContext } from "./context.ts";
import { limitUsage } from "./streams.ts";

/** Where a payment's root reserved its amount: kept in its intent's metadata, so a release finds it. */
export interface LimitReservation {
  /** Absent in intents recorded before reservations had ids: the transaction id stood for it. */
  reservationId?: string;
  currency: string;
  day: string;
  amount: number;
}

/** How much of the day's limits the client has used in a currency. */
export async function usageOn(context: CommandContext, clientId: string, currency: string, day: string): Promise<LimitUsage> {
  const { state } = await limitUsage.read(context, { clientId, currency, day });
  return state;
}

type Reservation = { ok: true; reservation: LimitReservation } | { ok: false; breach: LimitBreach };

/** Takes the amount from the day's limits, exactly, however many requests race; or says which limit it would break. */
export function reserveLimit(
  context: CommandContext,
  request: { clientId: string; transactionId: string; amount: number; limit: CurrencyLimit },
): Promise<Reservation> {
  const attributes = { "ledger.currency": request.limit.currency, "ledger.amount": request.amount };
  return inSpan(context.registries.tracer, "limit reservation", { attributes }, async (span) => {
    const reserved = await reserve(context, request);
    span.setAttribute("ledger.limit", reserved.ok ? "reserved" : `breached ${reserved.breach.limit}`);
    return reserved;
  });
}

async function reserve(
  context: CommandContext,
  request: { clientId: string; transactionId: string; amount: number; limit: CurrencyLimit },
): Promise<Reservation> {
  const day = utcDay(context.now());
  const { currency } = request.limit;
  const reservationId = newId();
  // Racing sales of one client all write its usage stream: they are committed in groups.
  const result = await limitUsage.handle(
    context,
    { clientId: request.clientId, currency, day },
    { type: "Reserve", reservationId, ...request, now: context.now().toISOString() },
  );
  if (result.ok) return { ok: true, reservation: { reservationId, currency, day, amount: request.amount } };
  const breach = breachOf(request.limit, result.state, request.amount);
  if (!breach) throw new Error("a reservation was refused without a breached limit");
  return { ok: false, breach };
}

/**
 * Gives back what an append to a payment's stream stopped holding of its limit reservation
 * (`limitHeldBy` before and after): all that was left of it, and its count, once the payment holds
 * nothing; else the part that fell. Called only by whoever appended, so each fall is given back once.
 */
export async function giveLimitBack(context: CommandContext, paymentId: string, { before, state }: { before: PaymentState; state: PaymentState }): Promise<void> {
  const held = limitHeldBy(before);
  const holds = limitHeldBy(state);
  const root = before.rootTransactionId === null ? undefined : before.transactions.get(before.rootTransactionId);
  if (holds >= held || !root) return;
  const [intent] = await context.store.readStream(paymentStreamId(paymentId), { maxCount: 1 });
  const reservation = intent && reservationOf(intent);
  if (!reservation) return;
  await limitUsage.handle(
    context,
    { clientId: root.clientId, currency: reservation.currency, day: reservation.day },
    {
      // A returned part leaves the payment counted; a release ends its reservation.
      type: holds === 0 ? "Release" : "Return",
      reservationId: reservation.reservationId,
      transactionId: reservation.transactionId,
      amount: held - holds,
      now: context.now().toISOString(),
    },
  );
}

/** The reservation a payment's intent (its stream's first event) holds, if its root reserved one. */
export function reservationOf(intent: RecordedEvent): (Required<LimitReservation> & { transactionId: string }) | undefined {
  const reservation = intent.metadata.limitReservation as LimitReservation | undefined;
  if (!reservation) return undefined;
  const transactionId = String(intent.data.transactionId);
  return { ...reservation, transactionId, reservationId: reservationIdOf({ ...reservation, transactionId }) };
}
