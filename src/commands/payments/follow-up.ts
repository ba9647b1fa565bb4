import { payments } from "../streams.ts";
import type { PaymentContext, TransactionLocation } from "./dependencies.ts";
import { hostConfigurationForPayment } from "./host-configuration.ts";
import { followUpRequest } from "./follow-up-request.ts";
import { runTransaction } from "./run-transaction.ts";

export type FollowUp = { transactionId: string; parentTransactionId: string } & (
  | { type: "capture"; amount: number | undefined; final: boolean }
  | { type: "refund"; amount: number | undefined; reason: string | null }
  | { type: "void" }
);

/**
 * A capture, refund or void: a new transaction in its parent's payment stream, so every amount
 * rule is checked against that one stream under its expected revision.
 */
export async function runFollowUp(context: PaymentContext, clientId: string, input: FollowUp) {
  const parent = await locateParent(context, clientId, input.parentTransactionId);
  if (!parent) return { ok: false as const, error: "not_found" as const, detail: "No such transaction." };
  const { hostConfigurations } = await context.paymentSettingsOf(clientId);
  const hostConfiguration = await hostConfigurationForPayment(context, parent, hostConfigurations);
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
        ? { ...common, transactionType: "capture" as const, amount: input.amount, final: input.final }
        : { ...common, transactionType: "refund" as const, amount: input.amount, reason: input.reason };

  return runTransaction(context, parent.paymentId, initiate, (state) => followUpRequest(state, transactionId, hostConfiguration));
}


/**
 * Where the parent is. A payment's first transaction (an authorization or a sale: what most
 * follow-ups follow) has the payment's id, so its stream is read at once from the log, with no
 * wait for a read model to apply it; any other (a refund of a capture) is looked up across
 * payments. A first transaction of another client's is no transaction of this one's.
 */
async function locateParent(context: PaymentContext, clientId: string, transactionId: string): Promise<TransactionLocation | undefined> {
  const { state } = await payments.read(context, transactionId);
  const first = state.rootTransactionId === transactionId ? state.transactions.get(transactionId) : undefined;
  if (!first) return context.locateTransaction(clientId, transactionId);
  if (first.clientId !== clientId) return undefined;
  return { paymentId: transactionId, processor: first.processor, hostConfigurationId: first.hostConfigurationId };
}
