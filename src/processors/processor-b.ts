import { z } from "zod";
import type { HostConfigurationFields } from "../domain/host-configurations/schemas.ts";
import { defineConnector, readWith } from "./connector.ts";
import { compact } from "./json.ts";
import type { Operation } from "./port.ts";
import { twoDigits } from "./request.ts";

/** processor_b: a header/transaction envelope on one path; the Datawire id travels in a header. */

const types: Record<Operation, string> = {
  authorization: "AUTH",
  sale: "SALE",
  capture: "COMPLETION",
  refund: "REFUND",
  void: "REVERSAL",
};

/** The envelope's header: who sends, on every message. */
function header({ merchant, settings }: HostConfigurationFields<"processor_b">) {
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

const answerSchema = z.object({
  result: z.object({
    responseCode: z.string(),
    responseMessage: z.string().optional(),
    authId: z.string().optional(),
    referenceNumber: z.string().optional(),
  }),
});

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

export const processorB = defineConnector({
  processor: "processor_b",
  root: "/processor_b",
  /** The Datawire id header: the schema holds it to 20 digits, so it is never dropped from a header. */
  credentials: ({ datawireId }) => ({ headers: { "x-datawire-id": datawireId } }),
  submit: ({ request, card, parent, configuration }) => ({
    path: "transactions",
    body: {
      header: header(configuration),
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
    },
  }),
  inquiry: (transactionId) => ({ path: `transactions/${encodeURIComponent(transactionId)}` }),
  /** The batch is our settlement id, its items our transaction ids as the `clientRef`s we sent. */
  batchClose: (request, configuration) => ({
    path: "batches",
    body: {
      header: header(configuration),
      batch: { type: "CLOSE", batchRef: request.settlementId, clientRefs: [...request.transactionIds] },
    },
  }),
  answer: readWith(answerSchema, ({ result }) => ({
    code: result.responseCode,
    message: result.responseMessage,
    authorizationCode: result.authId,
    reference: result.referenceNumber,
  })),
  notFound: z.object({ error: z.object({ code: z.literal("TRANSACTION_NOT_FOUND") }) }),
  batchAnswer: readWith(batchAnswerSchema, ({ result, batch }) => ({
    code: result.responseCode,
    message: result.responseMessage,
    totals: batch?.totals.map((total) => ({
      currency: total.currency,
      salesCount: total.saleCount,
      salesAmount: total.saleValue,
      refundsCount: total.refundCount,
      refundsAmount: total.refundValue,
      netAmount: total.netValue,
    })),
    transactionIds: batch?.settledClientRefs,
  })),
});
