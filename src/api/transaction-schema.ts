import { z } from "zod";
import { cardSummarySchema } from "./card-summary-schema.ts";
import { processors } from "../domain/host-configurations/schemas.ts";
import { declineCodes, failureReasons, transactionStates } from "../domain/payments/index.ts";

const processorResponseSchema = z.object({
  code: z.string(),
  message: z.string(),
  authorizationCode: z.string().nullable(),
  reference: z.string().nullable(),
});

/** A transaction as every route answers it (its POSTs, GET by id, the history and settlement lists). */
export const transactionSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(["authorization", "capture", "sale", "refund", "void"]),
    status: z.enum(["pending", "approved", "declined", "failed"]),
    clientId: z.uuid(),
    userId: z.string(),
    processor: z.enum(processors),
    hostConfigurationId: z.uuid(),
    amount: z.number().int(),
    currency: z.string(),
    parentTransactionId: z.uuid().nullable(),
    card: cardSummarySchema.nullable(),
    declineCode: z.enum(declineCodes).nullable(),
    failureReason: z
      .enum(failureReasons)
      .nullable()
      .describe(
        "Why a failed transaction failed: processor_error, processor_authentication_failed (the host configuration's credentials), " +
          "reversed (no answer in time: voided at the processor), not_found (the processor has no trace of it).",
      ),
    processorResponse: processorResponseSchema.nullable(),
    capturedAmount: z.number().int(),
    refundedAmount: z.number().int(),
    voided: z.boolean(),
    settledAt: z.string().nullable().describe("When its settlement batch took it to the processor; after that a sale or capture can no longer be voided."),
    settlementId: z.string().nullable().describe("The settlement batch it went in (`GET /v1/settlements/{id}`)."),
    expiredAt: z.string().nullable().describe("An authorization whose time to be captured ran out; what was left of it was voided."),
    state: z
      .enum(transactionStates)
      .describe(
        "Where the transaction stands now, after everything done to it since (`status` is the outcome of the operation itself and never changes once final). " +
          "Authorization: pending, declined, failed, authorized, partially_captured (captures so far, the rest still held), " +
          "captured (nothing left held: all captured, or the rest released), voided, expired. " +
          "Sale and capture: pending, declined, failed, succeeded, partially_refunded, refunded, voided. Refund and void: pending, declined, failed, succeeded.",
      ),
    paymentMethodId: z.uuid().nullable().describe("The stored card it was made with (authorizations and sales); null for a card sent inline."),
    reference: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Transaction" });
