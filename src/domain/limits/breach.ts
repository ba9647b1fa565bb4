/**
 * The limit a reservation would break: found by the usage decider (`usage.ts`), recorded on the
 * declined payment (`payments/events.ts`). A module of its own, importing nothing, so that
 * payments can name it without depending on the limits' other modules (which read payment state).
 */

export type LimitName = "maxAmountPerTransaction" | "dailyAmount" | "dailyCount";

/** The limit a reservation would break, and what is left of it. */
export interface LimitBreach {
  limit: LimitName;
  value: number;
  remaining: number;
}
