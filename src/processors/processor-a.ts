import { z } from "zod";
import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import { type AnswerReader, type BatchAnswer, batchCloseOutcome, inquiryOutcome, submitOutcome } from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient } from "./http.ts";
import { compact } from "./json.ts";
import type { BatchCloseRequest, Operation, ProcessorConnector, ProcessorRequest } from "./port.ts";
import { cardOf, parentOf, twoDigits } from "./request.ts";

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
function acceptor(view: HostConfigurationView) {
  const { merchant, settings } = configurationFor("processor_a", view);
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

function message(request: ProcessorRequest) {
  const card = cardOf(request);
  const parent = parentOf(request);
  return compact({
    messageType: messageTypes[request.operation],
    processingCode: request.operation === "refund" ? "200000" : "000000",
    transactionReference: request.transactionId,
    originalTransactionReference: parent?.transactionId,
    originalRetrievalReferenceNumber: parent?.reference,
    amount: String(request.amount).padStart(12, "0"),
    currency: request.currency,
    ...acceptor(request.hostConfiguration.view),
    card:
      card &&
      compact({
        pan: card.number.expose(),
        expiry: `${twoDigits(card.expYear)}${twoDigits(card.expMonth)}`,
        cvv2: card.cvc?.expose(),
        cardholderName: card.holderName,
      }),
  });
}

/** A 0500 reconciliation request: the batch is our settlement id, its items our transaction ids. */
function batchMessage(request: BatchCloseRequest) {
  return {
    messageType: "0500",
    processingCode: "920000",
    batchReference: request.settlementId,
    transactionReferences: [...request.transactionIds],
    ...acceptor(request.hostConfiguration.view),
  };
}

const answerSchema = z.object({
  responseCode: z.string(),
  responseText: z.string().optional(),
  approvalCode: z.string().optional(),
  retrievalReferenceNumber: z.string().optional(),
});

const reader: AnswerReader = {
  answer(body) {
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const data = parsed.data;
    return {
      code: data.responseCode,
      message: data.responseText,
      authorizationCode: data.approvalCode,
      reference: data.retrievalReferenceNumber,
    };
  },
  notFound: (body) => answerSchema.safeParse(body).data?.responseCode === "25",
};

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

function readBatchAnswer(body: unknown): BatchAnswer | undefined {
  const parsed = batchAnswerSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { responseCode, responseText, totals, settledTransactionReferences } = parsed.data;
  return { code: responseCode, message: responseText, totals, transactionIds: settledTransactionReferences };
}

export function createProcessorA(http: HttpClient, baseUrl: string): ProcessorConnector {
  const root = `${baseUrl}/processor_a/v1`;
  return {
    processor: "processor_a",
    async submit(request) {
      return submitOutcome(await http.post(`${root}/${paths[request.operation]}`, message(request)), reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      const { merchant } = configurationFor("processor_a", hostConfiguration.view);
      const query = new URLSearchParams({ merchantNumber: merchant.merchantNumber });
      return inquiryOutcome(await http.get(`${root}/transactions/${encodeURIComponent(transactionId)}?${query}`), reader);
    },
    async closeBatch(request) {
      return batchCloseOutcome(await http.post(`${root}/batch-close`, batchMessage(request)), readBatchAnswer);
    },
  };
}
