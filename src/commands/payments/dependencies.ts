import type { SecretBox } from "../../crypto/secrets.ts";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { LimitName } from "../../domain/limits/usage.ts";
import type { TransactionView } from "../../domain/payments/index.ts";
import type { Logger } from "../../logger.ts";
import type { Connectors } from "../../processors/port.ts";
import type { CommandContext } from "../context.ts";
import type { Secret } from "../../domain/secret.ts";
import type { StoredCards } from "../payment-methods/stored-card.ts";
import type { PaymentSettingsOf } from "./payment-settings.ts";

/**
 * The request's Idempotency-Key, when it carries one: before a transaction's intent is recorded,
 * the key is bound to that transaction for good. `false`: another request has taken the key over.
 */
export type BindIdempotencyKey = (binding: { transactionId: string; paymentId: string }) => Promise<boolean>;

/**
 * What one resolver pass recorded for a transaction: the outcome an inquiry found (`approved_late`:
 * a transaction failed on "not found" that the processor approved after all), the result of its
 * reversal, or `still_pending` when the processor gave no usable answer and it is asked again later.
 */
export const pendingResolutions = [
  "approved",
  "declined",
  "failed",
  "approved_late",
  "reversed",
  "reversal_refused",
  "still_pending",
] as const;
export type PendingResolution = (typeof pendingResolutions)[number];

/** What payments report to the service's metrics: counter increments, nothing that waits. */
export interface PaymentMetrics {
  /** A transaction's first recorded outcome, `pending` when the processor did not answer in time. */
  countTransaction(transaction: Pick<TransactionView, "type" | "processor" | "status">): void;
  countLimitDecline(limit: LimitName): void;
  countPendingResolution(resolution: PendingResolution): void;
}

/** Where a client's transaction is: its payment, processor and host configuration. */
export interface TransactionLocation {
  paymentId: string;
  processor: Processor;
  hostConfigurationId: string;
}

/**
 * Finds a client's transaction in whichever payment holds it, whichever instance recorded it:
 * undefined only when it does not exist. A lookup across streams: the read side implements it
 * (src/projections), and the service gives it at start.
 */
export type LocateTransaction = (clientId: string, transactionId: string) => Promise<TransactionLocation | undefined>;

export interface PaymentContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  /** How long a processor call may last; a call is started only this long after its intent, at most (`sendAndRecord`). */
  processorTimeoutMs: number;
  fingerprint: (cardNumber: Secret<string>) => string;
  logger: Pick<Logger, "error" | "warn" | "info">;
  metrics: PaymentMetrics;
  bindIdempotencyKey?: BindIdempotencyKey;
  locateTransaction: LocateTransaction;
  paymentSettingsOf: PaymentSettingsOf;
  storedCards: StoredCards;
}
