import type { ColumnType, Generated, JSONColumnType } from "kysely";
import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import type { JournalLine, PaymentBooks } from "../domain/journal/index.ts";
import type { CurrencyLimit } from "../domain/limits/limits.ts";
import type { PaymentMethodView } from "../domain/payment-methods/decider.ts";
import type { ResolverWork } from "../domain/payments/reversal.ts";
import type { StoredPaymentState } from "../domain/payments/stored-state.ts";
import type { TransactionView } from "../domain/payments/view.ts";
import type { SettlementView } from "../domain/settlements/view.ts";
import type { WebhookDisabledReason } from "../domain/webhooks/endpoint.ts";
import type { EventSubscription } from "../domain/webhooks/event-types.ts";

/** Columns PostgreSQL returns as text because they can exceed 2^53 (cast in SQL, BigInt in code). */
type Int8 = ColumnType<string, string | bigint, string | bigint>;

export interface StreamsTable {
  stream_id: string;
  revision: Int8;
}

export interface EventsTable {
  position: Generated<Int8>;
  transaction_id: Generated<string>;
  event_id: string;
  stream_id: string;
  revision: Int8;
  type: string;
  data: unknown;
  metadata: unknown;
  recorded_at: Generated<Date>;
}

export interface ProjectionCheckpointsTable {
  projection: string;
  checkpoint: string | null;
  last_position: Int8 | null;
  last_recorded_at: Date | null;
  owner: string | null;
  lease_expires_at: Date | null;
  /** A job's most recent pass that did anything (the pending resolver's PassSummary), as json. */
  last_pass: unknown;
  updated_at: Generated<Date>;
}

export interface ClientsTable {
  client_id: string;
  name: string;
  /** As last set; the projection writes it as JSON text. */
  limits: JSONColumnType<CurrencyLimit[], string | undefined>;
  created_at: Date;
  updated_at: Date;
  revision: Int8;
}

export interface ApiKeysTable {
  key_id: string;
  client_id: string;
  key_hash: string;
  /** The key's first characters; null for keys issued before they were kept. */
  prefix: string | null;
  /** What its admin called it; null when unnamed. */
  name: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** When each client key last authenticated a request, to the minute; no row until its first use. */
export interface ApiKeyLastUsedTable {
  key_id: string;
  last_used_at: Date;
}

export interface AdminKeyTable {
  singleton: Generated<boolean>;
  key_hash: string;
  created_at: Generated<Date>;
}

export interface IdempotencyRecordsTable {
  scope: string;
  idempotency_key: string;
  request_hash: string;
  status_code: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
  claim_token: string | null;
  locked_until: Date | null;
  transaction_id: string | null;
  payment_id: string | null;
  resource_id: string | null;
}

export interface HostConfigurationsTable {
  host_configuration_id: string;
  processor: string;
  client_id: string;
  enabled: boolean;
  version: number;
  /** The API view: never holds secrets. */
  view: JSONColumnType<HostConfigurationView>;
  created_at: Date;
  updated_at: Date;
  /** The client's default for this processor: payments that name no configuration run on it. */
  is_default: Generated<boolean>;
}

export interface PaymentsTable {
  payment_id: string;
  client_id: string;
  revision: Int8;
  state: JSONColumnType<StoredPaymentState>;
}

export interface TransactionsTable {
  transaction_id: string;
  payment_id: string;
  client_id: string;
  type: string;
  status: string;
  /** The view's `state`: where the transaction stands now. */
  state: string;
  parent_transaction_id: string | null;
  user_id: string;
  processor: string;
  currency: string;
  amount: Int8;
  reference: string | null;
  created_at: Date;
  updated_at: Date;
  /** The API transaction object: never holds a card number or CVC. */
  view: JSONColumnType<TransactionView>;
  /** What the pending resolver still owes it (`resolverWork`); null: nothing. */
  resolver_work: ResolverWork | null;
  host_configuration_id: string;
  /** An approved sale, capture or refund, not voided and not in a settlement batch yet. */
  awaiting_settlement: boolean;
  /** An approved authorization with something left to capture: since when (its approval). */
  capturable_since: Date | null;
}

export interface SettlementsTable {
  settlement_id: string;
  client_id: string;
  processor: string;
  host_configuration_id: string;
  /** The scheduled day the batch closes, in its time zone; null for a manual close. */
  local_date: string | null;
  status: "open" | "matched" | "mismatched" | "failed";
  cutoff: Date;
  opened_at: Date;
  closed_at: Date | null;
  /** The API's batch object, as it stands (never null since migration 0018 filled in those of batches opened before it). */
  view: JSONColumnType<SettlementView>;
}

/** A journal entry: balanced lines in one currency, and the event that posted them (src/domain/journal). */
export interface JournalEntriesTable {
  entry_id: string;
  client_id: string;
  processor: string;
  currency: string;
  kind: string;
  payment_id: string | null;
  transaction_id: string | null;
  settlement_id: string | null;
  occurred_at: Date;
  event_id: string;
  event_type: string;
  event_position: string;
  lines: JSONColumnType<JournalLine[]>;
}

/** What the journal keeps of a payment (its books) to post the payment's next events. */
export interface JournalPaymentsTable {
  payment_id: string;
  revision: string;
  books: JSONColumnType<PaymentBooks>;
}

/** A transaction a batch took (one of its candidates): its paged list keeps those settled in it. */
export interface SettlementTransactionsTable {
  settlement_id: string;
  transaction_id: string;
}

export interface WebhookEndpointsTable {
  endpoint_id: string;
  client_id: string;
  url: string;
  events: EventSubscription[];
  description: string | null;
  enabled: boolean;
  /** Set while the service has the endpoint disabled. */
  disabled_reason: WebhookDisabledReason | null;
  deleted: boolean;
  /** Encrypted (SecretBox), bound to the endpoint. */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
  revision: Int8;
}

export interface WebhookDeliveriesTable {
  delivery_id: string;
  endpoint_id: string;
  client_id: string;
  /** The `webhook-id`: the same for every endpoint and attempt of one message. */
  message_id: string;
  event_type: string;
  /** The transaction or batch the message is about: one endpoint gets a subject's messages in order. */
  subject_id: string;
  position: Int8;
  /** Order among the messages of one event. */
  ordinal: number;
  /** The body, as sent on every attempt. */
  payload: string;
  /** The trace of the append that caused the message, when it was traced. */
  traceparent: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: Generated<number>;
  /** The attempt count when the current retry schedule began (a redelivery starts a new one). */
  round_start: Generated<number>;
  /** Redeliveries asked for: an attempt that ends after another one was asked for leaves the delivery due again. */
  redeliveries: Generated<number>;
  next_attempt_at: Date;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface WebhookAttemptsTable {
  attempt_id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  /** `pending`: it failed and a retry is scheduled; `failed`: it failed and none is. */
  status: "pending" | "delivered" | "failed";
  response_status: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

/** A payment method's data key, wrapped by a master key: deleting the row shreds the card number. */
export interface PaymentMethodKeysTable {
  data_key_id: string;
  payment_method_id: string;
  master_key_id: string;
  wrapped_key: string;
  created_at: Date;
  rewrapped_at: Date | null;
  /** Set when its deletion began: no payment reads the key from then on. */
  deleting_since: Date | null;
}

export interface PaymentMethodsTable {
  payment_method_id: string;
  client_id: string;
  user_id: string;
  /** The API view: never the number. */
  view: JSONColumnType<PaymentMethodView>;
  /** The card under its data key; null once deleted. */
  encrypted_card: string | null;
  /** The card's fingerprint under the same data key; null once deleted, and for methods stored before it moved there (their view has it). */
  encrypted_fingerprint: string | null;
  data_key_id: string;
  created_at: Date;
  deleted_at: Date | null;
}

export interface CardFingerprintKeysTable {
  key_id: string;
  /** The key, encrypted under the master keys; null once destroyed. */
  encrypted_key: string | null;
  created_at: Date;
  destroyed_at: Date | null;
}

export interface Database {
  streams: StreamsTable;
  events: EventsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  clients: ClientsTable;
  api_keys: ApiKeysTable;
  api_key_last_used: ApiKeyLastUsedTable;
  admin_key: AdminKeyTable;
  idempotency_records: IdempotencyRecordsTable;
  host_configurations: HostConfigurationsTable;
  payments: PaymentsTable;
  transactions: TransactionsTable;
  settlements: SettlementsTable;
  settlement_transactions: SettlementTransactionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  payment_method_keys: PaymentMethodKeysTable;
  payment_methods: PaymentMethodsTable;
  card_fingerprint_keys: CardFingerprintKeysTable;
  journal_entries: JournalEntriesTable;
  journal_payments: JournalPaymentsTable;
}
