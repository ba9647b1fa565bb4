import { cardSummaryOf, type SafeCard } from "../cards.ts";
import type { Processor } from "../host-configurations/schemas.ts";
import type { DeclineCode, FailureReason, ProcessorResponse, TransactionType } from "./events.ts";
import type { PaymentState, TransactionStatus } from "./state.ts";
import { flatTransaction } from "./stored-state.ts";
import { stateOf, type TransactionStateName } from "./transaction-state.ts";

/** The transaction object of the API, exactly. */
export type TransactionView = {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  clientId: string;
  userId: string;
  processor: Processor;
  hostConfigurationId: string;
  amount: number;
  currency: string;
  parentTransactionId: string | null;
  card: SafeCard | null;
  paymentMethodId: string | null;
  declineCode: DeclineCode | null;
  /** Why a failed transaction failed. */
  failureReason: FailureReason | null;
  processorResponse: ProcessorResponse | null;
  capturedAmount: number;
  refundedAmount: number;
  voided: boolean;
  settledAt: string | null;
  settlementId: string | null;
  expiredAt: string | null;
  /** Where it stands now, after everything done to it since (`status` is the operation's own outcome). */
  state: TransactionStateName;
  reference: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

export function toTransactionView(state: PaymentState, id: string): TransactionView | null {
  const transaction = state.transactions.get(id);
  if (!transaction) return null;
  const t = flatTransaction(transaction);
  return {
    id: t.id,
    type: t.type,
    status: t.status,
    clientId: t.clientId,
    userId: t.userId,
    processor: t.processor,
    hostConfigurationId: t.hostConfigurationId,
    amount: t.amount,
    currency: t.currency,
    parentTransactionId: t.parentTransactionId,
    card: t.card === null ? null : cardSummaryOf(t.card, { paidWithMethod: t.paymentMethodId != null }),
    paymentMethodId: t.paymentMethodId ?? null,
    declineCode: t.declineCode,
    failureReason: t.failureReason,
    processorResponse: t.processorResponse === null ? null : { ...t.processorResponse },
    capturedAmount: t.capturedAmount,
    refundedAmount: t.refundedAmount,
    voided: t.voided,
    settledAt: t.settledAt,
    settlementId: t.settlementId,
    expiredAt: t.expiredAt,
    state: stateOf(transaction),
    reference: t.reference,
    metadata: { ...t.metadata },
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
  };
}
