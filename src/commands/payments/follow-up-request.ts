import type { PaymentState } from "../../domain/payments/index.ts";
import type { ProcessorHostConfiguration, ProcessorRequest } from "../../processors/port.ts";

/** The processor call of a capture, refund or void the payment's state holds the intent of. */
export function followUpRequest(state: PaymentState, transactionId: string, hostConfiguration: ProcessorHostConfiguration): ProcessorRequest {
  const transaction = state.transactions.get(transactionId);
  const parent = transaction?.parentTransactionId ? state.transactions.get(transaction.parentTransactionId) : undefined;
  if (!transaction || !parent || transaction.type === "authorization" || transaction.type === "sale") {
    throw new Error(`${transactionId} is not a follow-up of this payment`);
  }
  return {
    operation: transaction.type,
    transactionId,
    parentTransactionId: parent.id,
    parentProcessorReference: parent.status === "approved" ? (parent.processorResponse.reference ?? undefined) : undefined,
    amount: transaction.amount,
    currency: transaction.currency,
    hostConfiguration,
  };
}
