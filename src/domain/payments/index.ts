import { type Decider, eventGuard } from "../decider.ts";
import { decide, type PaymentCommand, type PaymentFailure } from "./decide.ts";
import { type PaymentEvent, paymentEventTypes } from "./events.ts";
import { evolve, initialState, type PaymentState } from "./state.ts";

export const paymentDecider: Decider<PaymentState, PaymentCommand, PaymentEvent, PaymentFailure> = {
  initialState,
  evolve,
  decide,
  isEvent: eventGuard<PaymentEvent>(paymentEventTypes),
};

export { capturableAmount, refundableAmount } from "./amounts.ts";
export * from "./decide.ts";
export * from "./events.ts";
export * from "./reversal.ts";
export * from "./state.ts";
export * from "./transaction-state.ts";
export * from "./view.ts";
export { type FlatTransaction, flatTransaction } from "./stored-state.ts";
