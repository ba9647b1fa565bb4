import {
  type FailureReason,
  type InitiateTransaction,
  paymentDecider,
  type PaymentFailure,
  type PaymentState,
  paymentStreamId,
  type TransactionView,
  toTransactionView,
} from "../../domain/payments/index.ts";
import type { ProcessorRequest } from "../../processors/port.ts";
import { rememberPaymentWrite } from "../../projections/transactions/own-writes.ts";
import { givesLimitBack } from "../../domain/limits/limits.ts";
import { type EventMetadata, execute, type KnownStream } from "../execute.ts";
import { releaseLimitOf } from "../limits.ts";
import type { PaymentContext } from "./dependencies.ts";
import { outcomeOf } from "./outcome.ts";

export type TransactionResult =
  | { ok: true; transaction: TransactionView; failureReason: FailureReason | null }
  | { ok: false; error: PaymentFailure; detail: string };

/**
 * The life of one transaction: record the intent, call the processor, record its answer. A crash
 * between the two leaves a pending transaction for the resolver, never a charge with no trace.
 */
export async function runTransaction(
  context: PaymentContext,
  paymentId: string,
  initiate: InitiateTransaction,
  requestFor: (state: PaymentState) => ProcessorRequest,
  { newPayment = false, intentMetadata = {} }: { newPayment?: boolean; intentMetadata?: EventMetadata } = {},
): Promise<TransactionResult> {
  const streamId = paymentStreamId(paymentId);
  const initiated = await execute(
    context.store,
    paymentDecider,
    streamId,
    initiate,
    { ...context.metadata, ...intentMetadata },
    newPayment ? { known: newPaymentStream } : {},
  );
  if (!initiated.ok) return initiated;

  const request = requestFor(initiated.state);
  const answer = await context.connectors[request.hostConfiguration.view.processor].submit(request);
  const outcome = outcomeOf(answer);
  let state = initiated.state;
  let tip = initiated.tip;
  if (outcome) {
    const recorded = await execute(
      context.store,
      paymentDecider,
      streamId,
      { type: "RecordOutcome", transactionId: initiate.transactionId, outcome, now: context.now().toISOString() },
      context.metadata,
      { known: initiated },
    );
    if (!recorded.ok) throw new Error(`Recording the processor's answer failed: ${recorded.detail}`);
    state = recorded.state;
    tip = recorded.tip;
    if (recorded.events.length > 0 && givesLimitBack(state, initiate.transactionId)) {
      await releaseLimitOf(context, paymentId, initiate.clientId);
    }
  }
  if (tip) rememberPaymentWrite(context.db, initiate.clientId, paymentId, tip.revision);
  const transaction = toTransactionView(state, initiate.transactionId);
  const failureReason = state.transactions.get(initiate.transactionId)?.failureReason ?? null;
  if (!transaction) throw new Error("an initiated transaction is missing from its payment");
  return { ok: true, transaction, failureReason };
}

/** A payment's stream before its first transaction: a new id, so there is nothing to read. */
export const newPaymentStream: KnownStream<PaymentState> = { state: paymentDecider.initialState(), tip: undefined };
