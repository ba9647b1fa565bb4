import { safeCard } from "../../domain/cards.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { LimitBreach } from "../../domain/limits/usage.ts";
import type { InitiateRoot, RootTransactionType } from "../../domain/payments/index.ts";
import type { CardDetails } from "../../processors/port.ts";
import type { StoredCard } from "../payment-methods/stored-card.ts";
import { type LimitReservation, reserveLimit } from "../limits.ts";
import type { PaymentContext } from "./dependencies.ts";
import { hostConfigurationForPayment } from "./host-configuration.ts";
import { payments } from "../streams.ts";
import { answerRefusedIntent, asRecorded, failUnsent, recordIntent, sendAndRecord } from "./run-transaction.ts";

export interface StartPayment {
  /** The new transaction's id, which is also its payment's. */
  transactionId: string;
  type: RootTransactionType;
  processor: Processor;
  amount: number;
  currency: string;
  /** The card sent inline, or a stored one, decrypted once the intent (the record of its use) is recorded. */
  paying: { card: CardDetails } | { storedCard: StoredCard };
  clientId: string;
  userId: string;
  reference: string | null;
  metadata: Record<string, string>;
  hostConfigurationId: string | undefined;
}

/**
 * An authorization or a sale: a new payment whose stream starts with this transaction. When the
 * client has a limit in the currency, the amount is reserved first; a request that would break
 * it is recorded as declined (`limit_exceeded`) and never reaches the processor.
 */
export async function startPayment(context: PaymentContext, input: StartPayment) {
  const settings = await context.paymentSettingsOf(input.clientId);
  const hostConfiguration = await hostConfigurationForPayment(context, input, settings.hostConfigurations);
  if (!hostConfiguration.ok) return hostConfiguration;
  const { transactionId, paying } = input;
  const initiate = {
    type: "InitiateTransaction" as const,
    transactionType: input.type,
    transactionId,
    amount: input.amount,
    currency: input.currency,
    clientId: input.clientId,
    userId: input.userId,
    processor: input.processor,
    hostConfigurationId: hostConfiguration.view.id,
    hostConfigurationVersion: hostConfiguration.view.version,
    card: "storedCard" in paying ? paying.storedCard.summary : inlineSummary(context, paying.card),
    paymentMethodId: "storedCard" in paying ? paying.storedCard.paymentMethodId : null,
    reference: input.reference,
    metadata: input.metadata,
    now: context.now().toISOString(),
  };

  let limitReservation: LimitReservation | undefined;
  const limit = settings.limits.find((candidate) => candidate.currency === input.currency);
  if (limit) {
    const reserved = await reserveLimit(context, { clientId: input.clientId, transactionId, amount: input.amount, limit });
    if (!reserved.ok) return declineForLimit(context, initiate, reserved.breach);
    limitReservation = reserved.reservation;
  }

  const initiated = await recordIntent(context, transactionId, initiate, {
    newPayment: true,
    intentMetadata: limitReservation ? { limitReservation: { ...limitReservation } } : {},
  });
  if (!initiated.ok) return answerRefusedIntent(transactionId, initiate, initiated);
  const requestWith = (card: CardDetails) => ({
    operation: input.type,
    transactionId,
    amount: input.amount,
    currency: input.currency,
    card,
    hostConfiguration,
  });
  if ("card" in paying) return sendAndRecord(context, transactionId, initiate, requestWith(paying.card), initiated);
  const sent = await paying.storedCard.sendWith((card) => sendAndRecord(context, transactionId, initiate, requestWith(card), initiated));
  return sent.ok ? sent.value : failUnsent(context, transactionId, initiate, "payment_method_deleted", initiated);
}

function inlineSummary(context: PaymentContext, card: CardDetails) {
  return safeCard(card.number, card.expMonth, card.expYear, context.fingerprint(card.number));
}

/** Records the refused request as a declined transaction, so it shows in history and audits. */
async function declineForLimit(
  context: PaymentContext,
  initiate: InitiateRoot,
  breach: LimitBreach,
) {
  const initiated = await recordIntent(context, initiate.transactionId, initiate, { newPayment: true, intentMetadata: {} });
  if (!initiated.ok) return answerRefusedIntent(initiate.transactionId, initiate, initiated);
  const declined = await payments.handle(
    context,
    initiate.transactionId,
    {
      type: "RecordOutcome",
      transactionId: initiate.transactionId,
      outcome: { status: "declined", declineCode: "limit_exceeded", processorResponse: null, limitBreach: breach },
      now: context.now().toISOString(),
    },
    { known: initiated },
  );
  if (!declined.ok) throw new Error(`Recording a limit decline failed: ${declined.detail}`);
  const result = asRecorded(initiate.transactionId, initiate, declined.state, declined.tip);
  context.metrics.countTransaction(result.transaction);
  context.metrics.countLimitDecline(breach.limit);
  return result;
}
