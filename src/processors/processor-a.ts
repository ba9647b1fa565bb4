import { z } from "zod";
import type { HostConfigurationFields } from "../domain/host-configurations/schemas.ts";
import { defineConnector, readWith } from "./connector.ts";
import { compact } from "./json.ts";
import type { Operation } from "./port.ts";
import { twoDigits } from "./request.ts";

/** processor_a: ISO 8583 flavoured JSON, one path per operation, no credentials. */

const paths: Record<Operation, string> = {
  authorization: "authorize",
  sale: "sale",
  capture: "capture",
  refund: "refund",
  void: "void",
};
const messageTypes: Record<Operation, string> = {
  authorization: "0100",
  sale: "0200",
  capture: "0220",
  refund: "0200",
  void: "0400",
};

/** The merchant and terminal blocks every message carries. */
function acceptor({ merchant, settings }: HostConfigurationFields<"processor_a">) {
  return {
    merchant: compact({ ...merchant }),
    terminal: compact({
      agentBank: settings.agentBank,
      agentChain: settings.agentChain,
      storeNumber: settings.storeNumber,
      terminalNumber: settings.terminalNumber,
      terminalId: settings.terminalId,
      mcc: settings.mcc,
      mvv: settings.mvv,
      industryCode: settings.industryCode,
    }),
  };
}

const answerSchema = z.object({
  responseCode: z.string(),
  responseText: z.string().optional(),
  approvalCode: z.string().optional(),
  retrievalReferenceNumber: z.string().optional(),
});

// Reconciliation totals are wider than one transaction's amount, as in ISO 8583: n10 counts, n16 amounts.
const unsigned = (length: number) =>
  z.string().regex(new RegExp(`^[0-9]{${length}}$`)).transform(Number).refine(Number.isSafeInteger);
const count = unsigned(10);
const amount = unsigned(16);
/** Credit (C) or debit (D) to the merchant, as ISO 8583 signs a net settlement amount. */
const signedAmount = z
  .string()
  .regex(/^[CD][0-9]{16}$/)
  .transform((text) => {
    const magnitude = Number(text.slice(1));
    return text.startsWith("D") && magnitude !== 0 ? -magnitude : magnitude;
  })
  .refine(Number.isSafeInteger);

const batchAnswerSchema = z.object({
  messageType: z.literal("0510"),
  responseCode: z.string(),
  responseText: z.string().optional(),
  settledTransactionReferences: z.array(z.string()).optional(),
  totals: z
    .array(
      z.object({
        currency: z.string(),
        salesCount: count,
        salesAmount: amount,
        refundsCount: count,
        refundsAmount: amount,
        netAmount: signedAmount,
      }),
    )
    .optional(),
});

export const processorA = defineConnector({
  processor: "processor_a",
  root: "/processor_a/v1",
  submit: ({ request, card, parent, configuration }) => ({
    path: paths[request.operation],
    body: compact({
      messageType: messageTypes[request.operation],
      processingCode: request.operation === "refund" ? "200000" : "000000",
      transactionReference: request.transactionId,
      originalTransactionReference: parent?.transactionId,
      originalRetrievalReferenceNumber: parent?.reference,
      amount: String(request.amount).padStart(12, "0"),
      currency: request.currency,
      ...acceptor(configuration),
      card:
        card &&
        compact({
          pan: card.number.expose(),
          expiry: `${twoDigits(card.expYear)}${twoDigits(card.expMonth)}`,
          cvv2: card.cvc?.expose(),
          cardholderName: card.holderName,
        }),
    }),
  }),
  inquiry: (transactionId, { merchant }) => ({
    path: `transactions/${encodeURIComponent(transactionId)}?${new URLSearchParams({ merchantNumber: merchant.merchantNumber })}`,
  }),
  /** A 0500 reconciliation request: the batch is our settlement id, its items our transaction ids. */
  batchClose: (request, configuration) => ({
    path: "batch-close",
    body: {
      messageType: "0500",
      processingCode: "920000",
      batchReference: request.settlementId,
      transactionReferences: [...request.transactionIds],
      ...acceptor(configuration),
    },
  }),
  answer: readWith(answerSchema, (data) => ({
    code: data.responseCode,
    message: data.responseText,
    authorizationCode: data.approvalCode,
    reference: data.retrievalReferenceNumber,
  })),
  notFound: answerSchema.extend({ responseCode: z.literal("25") }),
  batchAnswer: readWith(batchAnswerSchema, ({ responseCode, responseText, totals, settledTransactionReferences }) => ({
    code: responseCode,
    message: responseText,
    totals,
    transactionIds: settledTransactionReferences,
  })),
});
