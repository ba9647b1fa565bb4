import { z } from "zod";
import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import type { CredentialsReader } from "./credentials.ts";
import {
  type AnswerReader,
  type BatchAnswer,
  batchCloseOutcome,
  inquiryOutcome,
  submitOutcome,
  unusableCredentials,
} from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient } from "./http.ts";
import { compact } from "./json.ts";
import type {
  BatchCloseRequest,
  Operation,
  ProcessorConnector,
  ProcessorHostConfiguration,
  ProcessorRequest,
} from "./port.ts";
import { cardOf, parentOf, twoDigits } from "./request.ts";

/** processor_b: a header/transaction envelope on one path; the Datawire id travels in a header. */

const types: Record<Operation, string> = {
  authorization: "AUTH",
  sale: "SALE",
  capture: "COMPLETION",
  refund: "REFUND",
  void: "REVERSAL",
};

/** The envelope's header: who sends, on every message. */
function header(view: HostConfigurationView) {
  const { merchant, settings } = configurationFor("processor_b", view);
  return compact({
    merchantId: merchant.merchantId,
    groupId: merchant.groupId,
    tppId: merchant.tppId,
    amexSeNumber: merchant.amexSeNumber,
    terminalId: settings.terminalId,
    mcc: settings.mcc,
    mvv: settings.mvv,
  });
}

function message(request: ProcessorRequest) {
  const card = cardOf(request);
  const parent = parentOf(request);
  return {
    header: header(request.hostConfiguration.view),
    transaction: compact({
      type: types[request.operation],
      clientRef: request.transactionId,
      originalClientRef: parent?.transactionId,
      originalReferenceNumber: parent?.reference,
      amount: { value: request.amount, currency: request.currency },
      card:
        card &&
        compact({
          accountNumber: card.number.expose(),
          expirationDate: `${twoDigits(card.expMonth)}${twoDigits(card.expYear)}`,
          securityCode: card.cvc?.expose(),
          cardholderName: card.holderName,
        }),
    }),
  };
}

/** The batch is our settlement id, its items our transaction ids as the `clientRef`s we sent. */
function batchMessage(request: BatchCloseRequest) {
  return {
    header: header(request.hostConfiguration.view),
    batch: { type: "CLOSE", batchRef: request.settlementId, clientRefs: [...request.transactionIds] },
  };
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

const tally = z.number().int().nonnegative();
const batchAnswerSchema = z.object({
  result: z.object({ responseCode: z.string(), responseMessage: z.string().optional() }),
  batch: z
    .object({
      settledClientRefs: z.array(z.string()).optional(),
      totals: z.array(
        z.object({
          currency: z.string(),
          saleCount: tally,
          saleValue: tally,
          refundCount: tally,
          refundValue: tally,
          netValue: z.number().int(),
        }),
      ),
    })
    .optional(),
});

function readBatchAnswer(body: unknown): BatchAnswer | undefined {
  const parsed = batchAnswerSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { result, batch } = parsed.data;
  const totals = batch?.totals.map((total) => ({
    currency: total.currency,
    salesCount: total.saleCount,
    salesAmount: total.saleValue,
    refundsCount: total.refundCount,
    refundsAmount: total.refundValue,
    netAmount: total.netValue,
  }));
  return { code: result.responseCode, message: result.responseMessage, totals, transactionIds: batch?.settledClientRefs };
}

export function createProcessorB(http: HttpClient, baseUrl: string, credentials: CredentialsReader): ProcessorConnector {
  const root = `${baseUrl}/processor_b`;
  /** The Datawire id header: the schema holds it to 20 digits, so it is never dropped from a header. */
  const authHeaders = (hostConfiguration: ProcessorHostConfiguration) => {
    const read = credentials.read("processor_b", hostConfiguration);
    return read.ok ? { ok: true as const, headers: { "x-datawire-id": read.credentials.datawireId } } : read;
  };
  return {
    processor: "processor_b",
    async submit(request) {
      const body = message(request);
      const auth = authHeaders(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.submit(auth.unusable);
      return submitOutcome(await http.post(`${root}/transactions`, body, auth.headers), reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      const auth = authHeaders(hostConfiguration);
      if (!auth.ok) return unusableCredentials.inquiry(auth.unusable);
      return inquiryOutcome(await http.get(`${root}/transactions/${encodeURIComponent(transactionId)}`, auth.headers), reader);
    },
    async closeBatch(request) {
      const body = batchMessage(request);
      const auth = authHeaders(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.batchClose(auth.unusable);
      return batchCloseOutcome(await http.post(`${root}/batches`, body, auth.headers), readBatchAnswer);
    },
  };
}
