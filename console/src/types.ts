/** The API's objects as the console reads them (API.md); only the fields it shows. */

import type { TransactionStateName } from "../../src/domain/payments/transaction-state.ts";

export { type TransactionStateName, transactionStates } from "../../src/domain/payments/transaction-state.ts";

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export type TransactionStatus = "pending" | "approved" | "declined" | "failed";

export interface Transaction {
  id: string;
  type: string;
  status: TransactionStatus;
  clientId: string;
  userId: string;
  processor: string;
  hostConfigurationId: string;
  amount: number;
  currency: string;
  parentTransactionId: string | null;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  declineCode: string | null;
  failureReason?: string | null;
  capturedAmount: number;
  refundedAmount: number;
  voided: boolean;
  settledAt: string | null;
  state: TransactionStateName;
  reference: string | null;
  createdAt: string;
  updatedAt: string;
}

export type JsonObject = { [key: string]: unknown };

/** One way a served event's link does not verify, as the service found it reading it. */
export interface LinkProblem {
  code: string;
  message: string;
  /** The hash the log should hold here, when it can be computed. */
  expected: string | null;
  /** The hash the log holds here. */
  found: string | null;
}

export interface LoggedEvent {
  id: string;
  streamId: string;
  position: string;
  revision: number;
  type: string;
  occurredAt: string;
  recordedAt: string;
  data: JsonObject;
  metadata: JsonObject;
  /** The service's check of the event's hash-chain link, made as it served it. */
  chain: { status: "verified" | "broken" | "unchained"; problems: LinkProblem[] };
}

export interface EventStream {
  streamId: string;
  events: LoggedEvent[];
}

export interface Client {
  id: string;
  name: string;
  limits: Array<{
    currency: string;
    maxAmountPerTransaction?: number;
    dailyAmount?: number;
    dailyCount?: number;
    today: { date: string; usedAmount: number; usedCount: number };
  }>;
}

export interface SettlementTotals {
  currency: string;
  salesCount: number;
  salesAmount: number;
  refundsCount: number;
  refundsAmount: number;
  netAmount: number;
}

export interface Settlement {
  id: string;
  clientId: string;
  processor: string;
  hostConfigurationId: string;
  closedAt: string | null;
  status: "closing" | "matched" | "mismatched" | "failed";
  totals: SettlementTotals[];
  transactionCount: number;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
}

export interface DeliveryAttempt {
  id: string;
  /** The message this attempt sent: every retry and redelivery of it shares the delivery. */
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: "pending" | "delivered" | "failed";
  responseStatus: number | null;
  error: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface HostConfiguration extends JsonObject {
  id: string;
  processor: string;
  clientId: string;
  name: string;
  enabled: boolean;
  version: number;
  updatedAt: string;
}

export interface OperationsStatus {
  checkedAt: string;
  projections: Array<{ projection: string; positionsBehind: string; secondsBehind: number }>;
  pending: { byAge: Record<string, number>; oldestSeconds: number };
  resolver: { owed: Record<string, number>; lastPass: { at: string; counts: Record<string, number> } | null };
  jobs: Array<{ name: string; active: boolean; lastSeenAt: string; leaseExpiresAt: string | null }>;
  webhooks: { pending: number; oldestSeconds: number };
  settlements: { mismatched: number };
}

/** The journal's accounts (API.md, Journal), in the order the console shows them. */
export type JournalAccount =
  | "processor_receivable"
  | "sales"
  | "refunds"
  | "settled_funds"
  | "settlement_differences"
  | "holds"
  | "holds_offset";

export interface JournalLine {
  account: JournalAccount;
  processor: string;
  currency: string;
  debit: number;
  credit: number;
}

/** A balanced entry, naming the event that posted it. */
export interface JournalEntry {
  id: string;
  kind: string;
  currency: string;
  transactionId: string | null;
  settlementId: string | null;
  occurredAt: string;
  eventId: string;
  lines: JournalLine[];
}

/** One account's balance for a client, processor and currency, told on its normal side. */
export interface JournalBalance {
  clientId: string;
  account: JournalAccount;
  processor: string;
  currency: string;
  balance: number;
}

export interface TrialBalance {
  currency: string;
  debit: number;
  credit: number;
  balanced: boolean;
}
