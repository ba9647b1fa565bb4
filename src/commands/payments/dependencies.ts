import type { SecretBox } from "../../crypto/secrets.ts";
import type { Connectors } from "../../processors/port.ts";
import type { CommandContext } from "../context.ts";

export interface PaymentContext extends CommandContext {
  secrets: SecretBox;
  connectors: Connectors;
  fingerprint: (cardNumber: string) => string;
}
