import type { Kysely } from "kysely";
import type { Registries } from "../../commands/context.ts";
import type { StoredCards } from "../../commands/payment-methods/stored-card.ts";
import type { LocateTransaction, PaymentMetrics } from "../../commands/payments/dependencies.ts";
import type { PaymentSettingsOf } from "../../commands/payments/payment-settings.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import type { Database } from "../../db/schema.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { Connectors } from "../../processors/port.ts";
import type { ReadYourWrites } from "../../projections/read-your-writes.ts";
import type { Secret } from "../../domain/secret.ts";

/** What route plugins are given: the stores, the clock, the service's registries and its read-your-writes. */
export interface RouteDependencies {
  db: Kysely<Database>;
  store: EventStore;
  now: () => Date;
  registries: Registries;
  /** What the projection runners applied, and the writes answered before they did: reads that follow a write wait on it. */
  readYourWrites: ReadYourWrites;
}

/** What the routes that make or answer transactions are given besides. */
export interface TransactionRouteDependencies extends RouteDependencies {
  locateTransaction: LocateTransaction;
  paymentSettingsOf: PaymentSettingsOf;
  storedCards: StoredCards;
  secrets: SecretBox;
  connectors: Connectors;
  processorTimeoutMs: number;
  fingerprint: (cardNumber: Secret<string>) => string;
  metrics: PaymentMetrics;
}
