import { z } from "zod";
import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import {
  type AnswerReader,
  type BatchAnswer,
  batchCloseOutcome,
  inquiryOutcome,
  submitOutcome,
  unusableCredentials,
} from "./exchange.ts";
import type { CredentialsReader } from "./credentials.ts";
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
import { cardOf, parentOf } from "./request.ts";

/** processor_d: resource-style REST with a bearer API key; follow-ups are sub-resources of the payment. */

const followUpPaths: Record<Exclude<Operation, "authorization" | "sale">, string> = {
  capture: "captures",
  refund: "refunds",
  void: "reversals",
};

function path(request: ProcessorRequest): string {
  const parent = parentOf(request);
  if (!parent || request.operation === "authorization" || request.operation === "sale") return "payments";
  // The processor's own id when we have it; it also accepts the reference we gave the parent.
  return `payments/${encodeURIComponent(parent.reference ?? parent.transactionId)}/${followUpPaths[request.operation]}`;
}

/** The acquirer and terminal objects every resource carries. */
function acceptor(view: HostConfigurationView) {
  const { merchant, settings } = configurationFor("processor_d", view);
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

function message(request: ProcessorRequest) {
  const card = cardOf(request);
  return compact({
    reference: request.transactionId,
    capture: request.operation === "sale" ? true : request.operation === "authorization" ? false : undefined,
    amount: { value: request.amount, currency: request.currency },
    ...acceptor(request.hostConfiguration.view),
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
  });
}

/** A settlement resource: its reference is our settlement id, its payments our transaction ids. */
function batchMessage(request: BatchCloseRequest) {
  return {
    reference: request.settlementId,
    ...acceptor(request.hostConfiguration.view),
    payments: [...request.transactionIds],
  };
}


const answerSchema = z.object({
  id: z.string(),
  result: z.object({ code: z.string(), message: z.string().optional() }),
  authorizationCode: z.string().optional(),
});
const notFoundSchema = z.object({ error: z.object({ type: z.literal("resource_missing") }) });

const reader: AnswerReader = {
  answer(body) {
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { id, result, authorizationCode } = parsed.data;
    return { code: result.code, message: result.message, authorizationCode, reference: id };
  },
  notFound: (body) => notFoundSchema.safeParse(body).success,
};

const tally = z.object({ count: z.number().int().nonnegative(), value: z.number().int().nonnegative() });
const batchAnswerSchema = z.object({
  result: z.object({ code: z.string(), message: z.string().optional() }),
  settled_payments: z.array(z.string()).optional(),
  totals: z
    .array(z.object({ currency: z.string(), sales: tally, refunds: tally, net: z.object({ value: z.number().int() }) }))
    .optional(),
});

function readBatchAnswer(body: unknown): BatchAnswer | undefined {
  const parsed = batchAnswerSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { result, totals, settled_payments } = parsed.data;
  return {
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
  };
}

export function createProcessorD(http: HttpClient, baseUrl: string, credentials: CredentialsReader): ProcessorConnector {
  const root = `${baseUrl}/processor_d/v2`;
  /** The bearer API key: the schema holds it to what a header value carries unchanged. */
  const authorization = (hostConfiguration: ProcessorHostConfiguration) => {
    const read = credentials.read("processor_d", hostConfiguration);
    return read.ok ? { ok: true as const, headers: { authorization: `Bearer ${read.credentials.secretApiKey}` } } : read;
  };
  return {
    processor: "processor_d",
    async submit(request) {
      const body = message(request);
      const auth = authorization(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.submit(auth.unusable);
      const result = await http.post(`${root}/${path(request)}`, body, {
        ...auth.headers,
        "idempotency-key": request.transactionId,
      });
      return submitOutcome(result, reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      const auth = authorization(hostConfiguration);
      if (!auth.ok) return unusableCredentials.inquiry(auth.unusable);
      return inquiryOutcome(await http.get(`${root}/references/${encodeURIComponent(transactionId)}`, auth.headers), reader);
    },
    async closeBatch(request) {
      const body = batchMessage(request);
      const auth = authorization(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.batchClose(auth.unusable);
      const result = await http.post(`${root}/settlements`, body, { ...auth.headers, "idempotency-key": request.settlementId });
      return batchCloseOutcome(result, readBatchAnswer);
    },
  };
}
