import type { Processor } from "../../domain/host-configurations/schemas.ts";
import { awaitOwnPaymentWrites } from "../../projections/transactions/own-writes.ts";
import type { PaymentContext } from "./dependencies.ts";
import { hostConfigurationForPayment } from "./host-configuration.ts";
import { runTransaction } from "./run-transaction.ts";

export type FollowUp = { transactionId: string; parentTransactionId: string } & (
  | { type: "capture"; amount: number | undefined }
  | { type: "refund"; amount: number | undefined; reason: string | null }
  | { type: "void" }
);

/**
 * A capture, refund or void: a new transaction in its parent's payment stream, so every amount
 * rule is checked against that one stream under its expected revision.
 */
export async function followUp(context: PaymentContext, clientId: string, input: FollowUp) {
  await awaitOwnPaymentWrites(context.db, clientId);
  const parent = await context.db
    .selectFrom("transactions")
    .select(["payment_id", "processor", "view"])
    .where("transaction_id", "=", input.parentTransactionId)
    .where("client_id", "=", clientId)
    .executeTakeFirst();
  if (!parent) return { ok: false as const, error: "not_found" as const, detail: "No such transaction." };
  const { hostConfigurationId } = parent.view as { hostConfigurationId: string };
  const hostConfiguration = await hostConfigurationForPayment(context, {
    clientId,
    processor: parent.processor as Processor,
    hostConfigurationId,
  });
  if (!hostConfiguration.ok) return hostConfiguration;

  const { transactionId } = input;
  const common = {
    type: "InitiateTransaction" as const,
    transactionId,
    parentTransactionId: input.parentTransactionId,
    clientId,
    hostConfigurationVersion: hostConfiguration.view.version,
    now: context.now().toISOString(),
  };
  const initiate =
    input.type === "void"
      ? { ...common, transactionType: "void" as const }
      : input.type === "capture"
        ? { ...common, transactionType: "capture" as const, amount: input.amount }
        : { ...common, transactionType: "refund" as const, amount: input.amount, reason: input.reason };

  return runTransaction(context, parent.payment_id, initiate, (state) => {
    const transaction = state.transactions.get(transactionId)!;
    const parentState = state.transactions.get(input.parentTransactionId)!;
    return {
      operation: input.type,
      transactionId,
      parentTransactionId: input.parentTransactionId,
      parentProcessorReference: parentState.processorResponse?.reference ?? undefined,
      amount: transaction.amount,
      currency: transaction.currency,
      hostConfiguration,
    };
  });
}
