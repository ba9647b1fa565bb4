import { safeCard } from "../../../src/domain/cards.ts";
import { fold } from "../../../src/domain/decider.ts";
import { paymentDecider, type PaymentCommand } from "../../../src/domain/payments/index.ts";
import { Secret } from "../../../src/domain/secret.ts";
import type {
  DeclineCode,
  FailureReason,
  InitiateCapture,
  InitiateRefund,
  InitiateRoot,
  InitiateVoid,
  PaymentEvent,
  RecordOutcome,
  RecordReversal,
  RequestReversal,
  TransactionInitiated,
  TransactionType,
  UnapprovedProcessorResponse,
} from "../../../src/domain/payments/index.ts";

/** Events and commands of one payment, with defaults for everything a test does not care about. */

export const clientId = "0190a8e2-7c3b-7def-8a12-3456789abcde";
export const otherClientId = "0190a8e2-7c3b-7def-8a12-3456789abcdf";
export const hostConfigurationId = "0190a8e2-0000-7000-8000-00000000000h";
export const card = safeCard(new Secret("4242424242424242"), 12, 2030, "fp_4242");
export const at = (minute: number) => new Date(Date.UTC(2026, 2, 15, 12, minute)).toISOString();

export const approvedResponse = { code: "00", message: "Approved", authorizationCode: "A1B2C3", reference: "ref-1" };
const declineResponses: Record<DeclineCode, { code: string; message: string } | null> = {
  card_declined: { code: "05", message: "Do not honor" },
  insufficient_funds: { code: "51", message: "Insufficient funds" },
  expired_card: { code: "54", message: "Expired card" },
  incorrect_cvc: { code: "N7", message: "CVC mismatch" },
  limit_exceeded: null,
};

type InitiatedOptions = Partial<TransactionInitiated["data"]>;

export function initiated(
  transactionId: string,
  type: TransactionType,
  amount: number,
  parentTransactionId: string | null = null,
  options: InitiatedOptions = {},
): PaymentEvent {
  return {
    type: "TransactionInitiated.v1",
    data: {
      transactionId,
      type,
      amount,
      currency: "USD",
      parentTransactionId,
      clientId,
      userId: "user_42",
      processor: "processor_a",
      hostConfigurationId,
      hostConfigurationVersion: 1,
      card: parentTransactionId === null ? card : null,
      reference: parentTransactionId === null ? "order-1001" : null,
      metadata: parentTransactionId === null ? { orderId: "1001" } : {},
      reason: null,
      occurredAt: at(0),
      ...options,
    },
  };
}

export const approved = (transactionId: string, occurredAt = at(1)): PaymentEvent => ({
  type: "TransactionApproved.v1",
  data: { transactionId, processorResponse: approvedResponse, occurredAt },
});

const declineResponse = (declineCode: DeclineCode): UnapprovedProcessorResponse | null => {
  const response = declineResponses[declineCode];
  return response && { ...response, authorizationCode: null, reference: "ref-1" };
};
const failureResponse: UnapprovedProcessorResponse = {
  code: "96",
  message: "System error",
  authorizationCode: null,
  reference: null,
};

export const declined = (
  transactionId: string,
  declineCode: DeclineCode = "card_declined",
  occurredAt = at(1),
): PaymentEvent => ({
  type: "TransactionDeclined.v1",
  data: { transactionId, declineCode, processorResponse: declineResponse(declineCode), occurredAt },
});

export const failed = (
  transactionId: string,
  reason: FailureReason = "processor_error",
  occurredAt = at(1),
): PaymentEvent => ({
  type: "TransactionFailed.v1",
  data: { transactionId, reason, processorResponse: failureResponse, occurredAt },
});

export const authorize = (
  transactionId: string,
  amount: number,
  overrides: Partial<InitiateRoot> = {},
): InitiateRoot => ({
  type: "InitiateTransaction",
  transactionType: "authorization",
  transactionId,
  amount,
  currency: "USD",
  clientId,
  userId: "user_42",
  processor: "processor_a",
  hostConfigurationId,
  hostConfigurationVersion: 1,
  card,
  reference: "order-1001",
  metadata: { orderId: "1001" },
  now: at(0),
  ...overrides,
});

export const sell = (transactionId: string, amount: number, overrides: Partial<InitiateRoot> = {}): InitiateRoot =>
  authorize(transactionId, amount, { transactionType: "sale", ...overrides });

const followUp = (transactionId: string, parentTransactionId: string) => ({
  type: "InitiateTransaction" as const,
  transactionId,
  parentTransactionId,
  clientId,
  hostConfigurationVersion: 1,
  now: at(0),
});

export const capture = (
  transactionId: string,
  parentTransactionId: string,
  amount?: number,
  overrides: Partial<InitiateCapture> = {},
): InitiateCapture => ({
  ...followUp(transactionId, parentTransactionId),
  transactionType: "capture",
  amount,
  ...overrides,
});

export const refund = (
  transactionId: string,
  parentTransactionId: string,
  amount?: number,
  overrides: Partial<InitiateRefund> = {},
): InitiateRefund => ({
  ...followUp(transactionId, parentTransactionId),
  transactionType: "refund",
  amount,
  ...overrides,
});

export const voidOf = (
  transactionId: string,
  parentTransactionId: string,
  overrides: Partial<InitiateVoid> = {},
): InitiateVoid => ({ ...followUp(transactionId, parentTransactionId), transactionType: "void", ...overrides });

export const approve = (transactionId: string, now = at(1)): RecordOutcome => ({
  type: "RecordOutcome",
  transactionId,
  outcome: { status: "approved", processorResponse: approvedResponse },
  now,
});

/** A processor's decline; a limit decline carries its breach (see the decider's test of it). */
export const decline = (
  transactionId: string,
  declineCode: Exclude<DeclineCode, "limit_exceeded"> = "card_declined",
  now = at(1),
): RecordOutcome => ({
  type: "RecordOutcome",
  transactionId,
  outcome: { status: "declined", declineCode, processorResponse: declineResponse(declineCode) },
  now,
});

export const fail = (transactionId: string, reason: FailureReason = "processor_error", now = at(1)): RecordOutcome => ({
  type: "RecordOutcome",
  transactionId,
  outcome: { status: "failed", reason, processorResponse: failureResponse },
  now,
});

const voidResponse = { code: "00", message: "Approved", authorizationCode: "V1", reference: "void-ref" };

export const approvedLate = (transactionId: string, occurredAt = at(2)): PaymentEvent => ({
  type: "TransactionApprovedLate.v1",
  data: { transactionId, processorResponse: approvedResponse, occurredAt },
});

export const reversalRequested = (transactionId: string, reversalId = "rev", occurredAt = at(3)): PaymentEvent => ({
  type: "TransactionReversalRequested.v1",
  data: { transactionId, reversalId, occurredAt },
});

export const reversed = (transactionId: string, reversalId = "rev", occurredAt = at(4)): PaymentEvent => ({
  type: "TransactionReversed.v1",
  data: { transactionId, reversalId, processorResponse: voidResponse, occurredAt },
});

export const reversalRefused = (transactionId: string, reversalId = "rev", occurredAt = at(4)): PaymentEvent => ({
  type: "TransactionReversalRefused.v1",
  data: { transactionId, reversalId, processorResponse: failureResponse, occurredAt },
});

export const requestReversal = (transactionId: string, reversalId = "rev", now = at(3)): RequestReversal => ({
  type: "RequestReversal",
  transactionId,
  reversalId,
  now,
});

export const recordReversal = (
  transactionId: string,
  status: "reversed" | "refused",
  reversalId = "rev",
  now = at(4),
): RecordReversal => ({
  type: "RecordReversal",
  transactionId,
  reversalId,
  result: { status, processorResponse: status === "reversed" ? voidResponse : failureResponse },
  now,
});

/** The events these commands record after `history`, each decided on the stream so far; a refusal throws. */
export function decidedAfter(history: readonly PaymentEvent[], ...commands: PaymentCommand[]): PaymentEvent[] {
  return commands.reduce<PaymentEvent[]>((events, command) => {
    const decision = paymentDecider.decide(command, fold(paymentDecider, [...history, ...events]));
    if (!decision.ok) throw new Error(`${command.type} refused: ${decision.detail}`);
    return [...events, ...decision.events];
  }, []);
}
