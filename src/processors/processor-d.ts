import { z } from "zod";
import type { HostConfigurationFields } from "../domain/host-configurations/schemas.ts";
import { type CheckedRequest, defineConnector, readWith } from "./connector.ts";
import { compact } from "./json.ts";
import type { Operation } from "./port.ts";

/** processor_d: resource-style REST with a bearer API key; follow-ups are sub-resources of the payment. */

const followUpPaths: Record<Exclude<Operation, "authorization" | "sale">, string> = {
  capture: "captures",
  refund: "refunds",
  void: "reversals",
};

/** A follow-up goes under its parent: the processor's own id when we have it; it also accepts the reference we gave the parent. */
function paymentPath({ request, parent }: CheckedRequest<"processor_d">): string {
  if (!parent || request.operation === "authorization" || request.operation === "sale") return "payments";
  return `payments/${encodeURIComponent(parent.reference ?? parent.transactionId)}/${followUpPaths[request.operation]}`;
}

/** The acquirer and terminal objects every resource carries. */
function acceptor({ merchant, settings }: HostConfigurationFields<"processor_d">) {
  return {
    acquirer: compact({
      bin: merchant.acquirerBin,
      merchantId: merchant.merchantId,
      institutionId: merchant.acquiringInstitutionId,
      amexSeNumber: merchant.amexSeNumber,
    }),
    terminal: compact({
      terminalId: settings.terminalId,
      terminalNumber: settings.terminalNumber,
      mcc: settings.mcc,
      mvv: settings.mvv,
    }),
  };
}

const answerSchema = z.object({
  id: z.string(),
  result: z.object({ code: z.string(), message: z.string().optional() }),
  authorizationCode: z.string().optional(),
});

const tally = z.object({ count: z.number().int().nonnegative(), value: z.number().int().nonnegative() });
const batchAnswerSchema = z.object({
  result: z.object({ code: z.string(), message: z.string().optional() }),
  settled_payments: z.array(z.string()).optional(),
  totals: z
    .array(z.object({ currency: z.string(), sales: tally, refunds: tally, net: z.object({ value: z.number().int() }) }))
    .optional(),
});

export const processorD = defineConnector({
  processor: "processor_d",
  root: "/processor_d/v2",
  /** The bearer API key: the schema holds it to what a header value carries unchanged. */
  credentials: ({ secretApiKey }) => ({ headers: { authorization: `Bearer ${secretApiKey}` } }),
  submit: (checked) => {
    const { request, card, configuration } = checked;
    const { operation, transactionId, amount, currency } = request;
    return {
      path: paymentPath(checked),
      body: compact({
        reference: transactionId,
        capture: operation === "sale" ? true : operation === "authorization" ? false : undefined,
        amount: { value: amount, currency },
        ...acceptor(configuration),
        paymentMethod:
          card &&
          compact({
            type: "card",
            number: card.number.expose(),
            expiryMonth: card.expMonth,
            expiryYear: card.expYear,
            cvc: card.cvc?.expose(),
            holderName: card.holderName,
          }),
      }),
      headers: { "idempotency-key": transactionId },
    };
  },
  inquiry: (transactionId) => ({ path: `references/${encodeURIComponent(transactionId)}` }),
  /** A settlement resource: its reference is our settlement id, its payments our transaction ids. */
  batchClose: (request, configuration) => ({
    path: "settlements",
    body: { reference: request.settlementId, ...acceptor(configuration), payments: [...request.transactionIds] },
    headers: { "idempotency-key": request.settlementId },
  }),
  answer: readWith(answerSchema, ({ id, result, authorizationCode }) => ({
    code: result.code,
    message: result.message,
    authorizationCode,
    reference: id,
  })),
  notFound: z.object({ error: z.object({ type: z.literal("resource_missing") }) }),
  batchAnswer: readWith(batchAnswerSchema, ({ result, totals, settled_payments }) => ({
    code: result.code,
    message: result.message,
    transactionIds: settled_payments,
    totals: totals?.map(({ currency, sales, refunds, net }) => ({
      currency,
      salesCount: sales.count,
      salesAmount: sales.value,
      refundsCount: refunds.count,
      refundsAmount: refunds.value,
      netAmount: net.value,
    })),
  })),
});
