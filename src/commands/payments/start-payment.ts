import { safeCard } from "../../domain/cards.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { RootTransactionType } from "../../domain/payments/index.ts";
import { newId } from "../../ids.ts";
import type { CardDetails } from "../../processors/port.ts";
import type { PaymentContext } from "./dependencies.ts";
import { hostConfigurationForPayment } from "./host-configuration.ts";
import { runTransaction } from "./run-transaction.ts";

export interface StartPayment {
  type: RootTransactionType;
  processor: Processor;
  amount: number;
  currency: string;
  card: CardDetails;
  clientId: string;
  userId: string;
  reference: string | null;
  metadata: Record<string, string>;
  hostConfigurationId: string | undefined;
}

/** An authorization or a sale: a new payment whose stream starts with this transaction. */
export async function startPayment(context: PaymentContext, input: StartPayment) {
  const hostConfiguration = await hostConfigurationForPayment(context, input);
  if (!hostConfiguration.ok) return hostConfiguration;
  const transactionId = newId();
  const { number, expMonth, expYear } = input.card;
  return runTransaction(
    context,
    transactionId,
    {
      type: "InitiateTransaction",
      transactionType: input.type,
      transactionId,
      amount: input.amount,
      currency: input.currency,
      clientId: input.clientId,
      userId: input.userId,
      processor: input.processor,
      hostConfigurationId: hostConfiguration.view.id,
      hostConfigurationVersion: hostConfiguration.view.version,
      card: safeCard(number, expMonth, expYear, context.fingerprint(number)),
      reference: input.reference,
      metadata: input.metadata,
      now: context.now().toISOString(),
    },
    () => ({
      operation: input.type,
      transactionId,
      amount: input.amount,
      currency: input.currency,
      card: input.card,
      hostConfiguration,
    }),
  );
}
