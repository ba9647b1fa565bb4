import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import type { Processor } from "../domain/host-configurations/schemas.ts";
import type { Secret } from "../domain/secret.ts";
import type { SettlementTotals } from "../domain/settlements/totals.ts";
import type { JsonObject } from "../eventstore/port.ts";

/**
 * The processor connector port: what the commands call to reach a card processor. Every
 * connector maps a request and its host configuration onto its processor's own message and maps
 * the answer back onto a `ProcessorOutcome`.
 */

export const operations = ["authorization", "sale", "capture", "refund", "void"] as const;
export type Operation = (typeof operations)[number];

/** The number and the CVC are exposed only where a connector writes them into its message. */
export interface CardDetails {
  number: Secret<string>;
  expMonth: number;
  expYear: number;
  cvc?: Secret<string> | undefined;
  holderName?: string | undefined;
}

export interface ProcessorHostConfiguration {
  view: HostConfigurationView;
  /** Already decrypted, exposed only where a connector sends them; `null` when the processor has none. */
  credentials: Secret<JsonObject> | null;
}

export interface ProcessorRequest {
  operation: Operation;
  /** Our id; also the idempotency reference at the processor. */
  transactionId: string;
  /** Required for capture, refund and void. */
  parentTransactionId?: string;
  /** The processor's reference of the parent, from its approval. */
  parentProcessorReference?: string;
  /** Minor units. */
  amount: number;
  currency: string;
  /** Authorization and sale only; never logged. */
  card?: CardDetails;
  hostConfiguration: ProcessorHostConfiguration;
}

export type DeclineCode = "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc";
export type FailureReason = "processor_error" | "processor_authentication_failed";

export type ProcessorOutcome =
  | { kind: "approved"; code: "00"; message: string; authorizationCode: string; reference: string }
  | { kind: "declined"; code: string; message: string; declineCode: DeclineCode; reference?: string }
  | { kind: "failed"; code: string; message: string; reason: FailureReason; reference?: string }
  /** Timeout or no usable answer: the processor may have acted, so the transaction stays pending. */
  | { kind: "unknown"; message: string };

export interface InquiryRequest {
  transactionId: string;
  hostConfiguration: ProcessorHostConfiguration;
}

export type InquiryOutcome = ProcessorOutcome | { kind: "not_found" };

/** A settlement batch to close at the processor. */
export interface BatchCloseRequest {
  /** Our settlement id: the processor's reference for the batch, so closing it again answers the same. */
  settlementId: string;
  hostConfiguration: ProcessorHostConfiguration;
  /** Our ids of the approved sales, captures and refunds the batch settles. */
  transactionIds: readonly string[];
}

export type BatchCloseOutcome =
  /** The processor closed the batch and counted it from its own records: these totals, of these of our ids. */
  | { kind: "closed"; totals: SettlementTotals[]; transactionIds: string[] }
  /** Refused outright (a malformed message, rejected credentials): nothing was closed. */
  | { kind: "refused"; message: string }
  /** No usable answer: the batch may or may not be closed; closing it again under the same id tells. */
  | { kind: "unknown"; message: string };

export interface ProcessorConnector {
  readonly processor: Processor;
  /**
   * Sends one operation, exactly once: never retried, since the processor may already have acted.
   * Resolves with the outcome for every processor or network answer; rejects only on a caller
   * bug (a host configuration of another processor, a follow-up without its parent, an
   * authorization or sale without a card).
   */
  submit(request: ProcessorRequest): Promise<ProcessorOutcome>;
  /**
   * Asks the processor what became of a transaction it may or may not have received.
   * `unknown` when the processor gave no usable answer: ask again later.
   */
  inquire(request: InquiryRequest): Promise<InquiryOutcome>;
  /** Closes a settlement batch; the processor answers with its own totals for it. */
  closeBatch(request: BatchCloseRequest): Promise<BatchCloseOutcome>;
}

export type Connectors = Record<Processor, ProcessorConnector>;
