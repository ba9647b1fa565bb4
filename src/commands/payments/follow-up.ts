import type { PaymentContext } from "./dependencies.ts";
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
  const parent = await context.locateTransaction(clientId, input.parentTransactionId);
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

