import type { SecretBox } from "../../crypto/secrets.ts";
import type { Logger } from "../../logger.ts";
import type { Connectors } from "../../processors/port.ts";
import type { CommandContext } from "../context.ts";

/**
 * The request's Idempotency-Key, when it carries one: before a transaction's intent is recorded,
 * the key is bound to that transaction for good. `false`: another request has taken the key over.
 */
export type BindIdempotencyKey = (binding: { transactionId: string; paymentId: string }) => Promise<boolean>;

export interface PaymentContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  fingerprint: (cardNumber: string) => string;
  logger: Pick<Logger, "error" | "warn" | "info">;
  bindIdempotencyKey?: BindIdempotencyKey;
}
