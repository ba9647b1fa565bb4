import { accept, type Decider, eventGuard, reject } from "../decider.ts";
import type { LimitBreach } from "./breach.ts";
import type { CurrencyLimit } from "./limits.ts";

// The usage decider speaks of breaches: those who use it take their names from it too.
export type { LimitBreach, LimitName } from "./breach.ts";

/**
 * One client's use of its limits in one currency on one UTC day, as a stream of its own: every
 * authorization or sale reserves its amount here under the stream's expected revision, so racing
 * requests on any number of instances can never together exceed a limit. Each event carries the
 * running totals, so deciding needs only the stream's last event.
 */
export const limitUsageStreamId = (clientId: string, currency: string, day: string) =>
  `limit-usage-${clientId}-${currency}-${day}`;

export type LimitUsageEvent = {
  type: "LimitUsageChanged.v1";
  data: {
    /**
     * Which reservation this reserves or releases: each attempt at a transaction reserves under an
     * id of its own, so a retry's reservation is never mistaken for its failed first attempt's.
     * Absent in events written before reservations had ids; their transaction id stood for it.
     */
    reservationId?: string;
    transactionId: string;
    /** `returned`: part of a reservation given back (an authorization's released rest); it stays open for the rest. */
    change: "reserved" | "released" | "returned";
    amount: number;
    usedAmount: number;
    usedCount: number;
    occurredAt: string;
  };
};

export interface LimitUsage {
  usedAmount: number;
  usedCount: number;
}

export type LimitUsageCommand =
  | { type: "Reserve"; reservationId: string; transactionId: string; amount: number; limit: CurrencyLimit; now: string }
  | { type: "Release"; reservationId: string; transactionId: string; amount: number; now: string }
  | { type: "Return"; reservationId: string; transactionId: string; amount: number; now: string };

/** The id a reservation is known by, in its events and in its payment's intent (older ones lack their own). */
export const reservationIdOf = (reservation: { reservationId?: string; transactionId: string }): string =>
  reservation.reservationId ?? reservation.transactionId;

/** A reservation not given back yet. */
export interface OpenReservation {
  reservationId: string;
  transactionId: string;
  amount: number;
  /** When it was reserved, in milliseconds. */
  at: number;
}

/** The reservations a usage stream's events leave open, by reservation id. */
export function openReservations(events: readonly LimitUsageEvent[]): Map<string, OpenReservation> {
  const open = new Map<string, OpenReservation>();
  for (const { data } of events) {
    const reservationId = reservationIdOf(data);
    const reservation = open.get(reservationId);
    if (data.change === "reserved") {
      open.set(reservationId, { reservationId, transactionId: data.transactionId, amount: data.amount, at: Date.parse(data.occurredAt) });
    } else if (data.change === "returned") {
      if (reservation) open.set(reservationId, { ...reservation, amount: Math.max(0, reservation.amount - data.amount) });
    } else {
      open.delete(reservationId);
    }
  }
  return open;
}

export const initialUsage = (): LimitUsage => ({ usedAmount: 0, usedCount: 0 });

/** The first limit the amount would break, if any. */
export function breachOf(limit: CurrencyLimit, usage: LimitUsage, amount: number): LimitBreach | null {
  if (limit.maxAmountPerTransaction !== undefined && amount > limit.maxAmountPerTransaction) {
    return { limit: "maxAmountPerTransaction", value: limit.maxAmountPerTransaction, remaining: limit.maxAmountPerTransaction };
  }
  if (limit.dailyAmount !== undefined && usage.usedAmount + amount > limit.dailyAmount) {
    return { limit: "dailyAmount", value: limit.dailyAmount, remaining: Math.max(0, limit.dailyAmount - usage.usedAmount) };
  }
  if (limit.dailyCount !== undefined && usage.usedCount + 1 > limit.dailyCount) {
    return { limit: "dailyCount", value: limit.dailyCount, remaining: Math.max(0, limit.dailyCount - usage.usedCount) };
  }
  return null;
}

export const limitUsageDecider: Decider<LimitUsage, LimitUsageCommand, LimitUsageEvent, "limit_exceeded"> = {
  initialState: initialUsage,
  evolve: (_state, event) => ({ usedAmount: event.data.usedAmount, usedCount: event.data.usedCount }),
  isEvent: eventGuard<LimitUsageEvent>([ "LimitUsageChanged.v1" ]),
  decide(command, usage) {
    if (command.type === "Reserve") {
      const breach = breachOf(command.limit, usage, command.amount);
      if (breach) return reject("limit_exceeded", JSON.stringify(breach));
      return accept({
        type: "LimitUsageChanged.v1",
        data: {
          reservationId: command.reservationId,
          transactionId: command.transactionId,
          change: "reserved",
          amount: command.amount,
          usedAmount: usage.usedAmount + command.amount,
          usedCount: usage.usedCount + 1,
          occurredAt: command.now,
        },
      });
    }
    const released = command.type === "Release";
    return accept({
      type: "LimitUsageChanged.v1",
      data: {
        reservationId: command.reservationId,
        transactionId: command.transactionId,
        change: released ? "released" : "returned",
        amount: command.amount,
        usedAmount: Math.max(0, usage.usedAmount - command.amount),
        // A returned part leaves the transaction counted.
        usedCount: Math.max(0, usage.usedCount - (released ? 1 : 0)),
        occurredAt: command.now,
      },
    });
  },
};
