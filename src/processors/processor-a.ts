import { z } from "zod";
import { type AnswerReader, inquiryOutcome, submitOutcome } from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient } from "./http.ts";
import { compact } from "./json.ts";
import type { Operation, ProcessorConnector, ProcessorRequest } from "./port.ts";
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

function message(request: ProcessorRequest) {
  const { merchant, settings } = configurationFor("processor_a", request.hostConfiguration.view);
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
    card:
      card &&
      compact({
        pan: card.number,
        expiry: `${twoDigits(card.expYear)}${twoDigits(card.expMonth)}`,
        cvv2: card.cvc,
        cardholderName: card.holderName,
      }),
  });
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
  };
}
