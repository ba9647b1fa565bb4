import { z } from "zod";
import { hostConfigurationSchemas } from "../domain/host-configurations/schemas.ts";
import { type AnswerReader, inquiryOutcome, submitOutcome, unusableCredentials } from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient } from "./http.ts";
import { compact } from "./json.ts";
import type { Operation, ProcessorConnector, ProcessorHostConfiguration, ProcessorRequest } from "./port.ts";
import { cardOf, parentOf, twoDigits } from "./request.ts";

/** processor_b: a header/transaction envelope on one path; the Datawire id travels in a header. */

const types: Record<Operation, string> = {
  authorization: "AUTH",
  sale: "SALE",
  capture: "COMPLETION",
  refund: "REFUND",
  void: "REVERSAL",
};

function message(request: ProcessorRequest) {
  const { merchant, settings } = configurationFor("processor_b", request.hostConfiguration.view);
  const card = cardOf(request);
  const parent = parentOf(request);
  return {
    header: compact({
      merchantId: merchant.merchantId,
      groupId: merchant.groupId,
      tppId: merchant.tppId,
      amexSeNumber: merchant.amexSeNumber,
      terminalId: settings.terminalId,
      mcc: settings.mcc,
      mvv: settings.mvv,
    }),
    transaction: compact({
      type: types[request.operation],
      clientRef: request.transactionId,
      originalClientRef: parent?.transactionId,
      originalReferenceNumber: parent?.reference,
      amount: { value: request.amount, currency: request.currency },
      card:
        card &&
        compact({
          accountNumber: card.number,
          expirationDate: `${twoDigits(card.expMonth)}${twoDigits(card.expYear)}`,
          securityCode: card.cvc,
          cardholderName: card.holderName,
        }),
    }),
  };
}

/** The Datawire id header, or `undefined` when the configuration has none. */
function authHeaders(hostConfiguration: ProcessorHostConfiguration) {
  const credentials = hostConfigurationSchemas.processor_b.credentials.safeParse(hostConfiguration.credentials);
  return credentials.success ? { "x-datawire-id": credentials.data.datawireId } : undefined;
}

const answerSchema = z.object({
  result: z.object({
    responseCode: z.string(),
    responseMessage: z.string().optional(),
    authId: z.string().optional(),
    referenceNumber: z.string().optional(),
  }),
});
const notFoundSchema = z.object({ error: z.object({ code: z.literal("TRANSACTION_NOT_FOUND") }) });

const reader: AnswerReader = {
  answer(body) {
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { responseCode, responseMessage, authId, referenceNumber } = parsed.data.result;
    return { code: responseCode, message: responseMessage, authorizationCode: authId, reference: referenceNumber };
  },
  notFound: (body) => notFoundSchema.safeParse(body).success,
};

export function createProcessorB(http: HttpClient, baseUrl: string): ProcessorConnector {
  const root = `${baseUrl}/processor_b/transactions`;
  return {
    processor: "processor_b",
    async submit(request) {
      const body = message(request);
      const headers = authHeaders(request.hostConfiguration);
      if (!headers) return unusableCredentials.submit;
      return submitOutcome(await http.post(root, body, headers), reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      configurationFor("processor_b", hostConfiguration.view);
      const headers = authHeaders(hostConfiguration);
      if (!headers) return unusableCredentials.inquiry;
      return inquiryOutcome(await http.get(`${root}/${encodeURIComponent(transactionId)}`, headers), reader);
    },
  };
}
