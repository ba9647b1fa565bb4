import { z } from "zod";
import type { HostConfigurationView } from "../domain/host-configurations/decider.ts";
import { minorUnitsOfDecimal, toDecimalAmount } from "./decimal-amount.ts";
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
import { cardOf, parentOf, twoDigits } from "./request.ts";

/** processor_c: flat `ssl_` fields, decimal amounts, the user id and PIN in the body. */

const transactionTypes: Record<Operation, string> = {
  authorization: "ccauthonly",
  sale: "ccsale",
  capture: "cccomplete",
  refund: "ccreturn",
  void: "ccvoid",
};


/** The platform and terminal fields every message carries besides the login. */
function terminal(view: HostConfigurationView) {
  const { merchant, settings } = configurationFor("processor_c", view);
  return {
    ssl_platform_bin: merchant.platformBin,
    ssl_amex_se_number: merchant.amexSeNumber,
    ssl_terminal_id: settings.terminalId,
    ssl_client_number: settings.clientNumber,
    ssl_store_number: settings.storeNumber,
  };
}

function message(request: ProcessorRequest) {
  const card = cardOf(request);
  const parent = parentOf(request);
  return compact({
    ssl_transaction_type: transactionTypes[request.operation],
    ...terminal(request.hostConfiguration.view),
    ssl_invoice_number: request.transactionId,
    ssl_original_invoice_number: parent?.transactionId,
    ssl_txn_id: parent?.reference,
    ssl_amount: toDecimalAmount(request.amount, request.currency),
    ssl_transaction_currency: request.currency,
    ssl_card_number: card?.number.expose(),
    ssl_exp_date: card && `${twoDigits(card.expMonth)}${twoDigits(card.expYear)}`,
    ssl_cvv2cvc2_indicator: card && (card.cvc === undefined ? "0" : "1"),
    ssl_cvv2cvc2: card?.cvc?.expose(),
    ssl_card_holder_name: card?.holderName,
  });
}

/** A settle request: the batch number is our settlement id, the invoice numbers our transaction ids. */
function batchMessage(request: BatchCloseRequest) {
  return compact({
    ssl_transaction_type: "ccsettle",
    ...terminal(request.hostConfiguration.view),
    ssl_batch_number: request.settlementId,
    ssl_invoice_numbers: [...request.transactionIds],
  });
}

const answerSchema = z.object({
  ssl_response_code: z.string(),
  ssl_result_message: z.string().optional(),
  ssl_approval_code: z.string().optional(),
  ssl_txn_id: z.string().optional(),
});
const notFoundSchema = z.object({ errorCode: z.literal("5040") });

const reader: AnswerReader = {
  answer(body) {
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const data = parsed.data;
    return {
      code: data.ssl_response_code,
      message: data.ssl_result_message,
      authorizationCode: data.ssl_approval_code,
      reference: data.ssl_txn_id,
    };
  },
  notFound: (body) => notFoundSchema.safeParse(body).success,
};

const countText = z.string().regex(/^[0-9]{1,9}$/).transform(Number);
const unsignedDecimal = z.string().regex(/^[0-9.]+$/);

/** One currency's totals, its decimal amounts read in that currency's decimals. */
const batchTotalSchema = z
  .object({
    ssl_transaction_currency: z.string(),
    ssl_sale_count: countText,
    ssl_sale_amount: unsignedDecimal,
    ssl_return_count: countText,
    ssl_return_amount: unsignedDecimal,
    ssl_net_amount: z.string(),
  })
  .transform((total, context) => {
    const currency = total.ssl_transaction_currency;
    const [salesAmount, refundsAmount, netAmount] = [total.ssl_sale_amount, total.ssl_return_amount, total.ssl_net_amount].map(
      (text) => minorUnitsOfDecimal(text, currency),
    );
    if (salesAmount === undefined || refundsAmount === undefined || netAmount === undefined) {
      context.addIssue({ code: "custom", message: "An amount is not in the currency's decimals." });
      return z.NEVER;
    }
    const salesCount = total.ssl_sale_count;
    const refundsCount = total.ssl_return_count;
    return { currency, salesCount, salesAmount, refundsCount, refundsAmount, netAmount };
  });

const batchAnswerSchema = z.object({
  ssl_response_code: z.string(),
  ssl_result_message: z.string().optional(),
  ssl_batch_totals: z.array(batchTotalSchema).optional(),
  ssl_settled_invoice_numbers: z.array(z.string()).optional(),
});

function readBatchAnswer(body: unknown): BatchAnswer | undefined {
  const parsed = batchAnswerSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { ssl_response_code, ssl_result_message, ssl_batch_totals, ssl_settled_invoice_numbers } = parsed.data;
  return { code: ssl_response_code, message: ssl_result_message, totals: ssl_batch_totals, transactionIds: ssl_settled_invoice_numbers };
}

export function createProcessorC(http: HttpClient, baseUrl: string, credentials: CredentialsReader): ProcessorConnector {
  const root = `${baseUrl}/processor_c/api`;
  /** The merchant and login fields every message starts with. */
  const identity = (hostConfiguration: ProcessorHostConfiguration) => {
    const { merchant } = configurationFor("processor_c", hostConfiguration.view);
    const read = credentials.read("processor_c", hostConfiguration);
    if (!read.ok) return read;
    const { username, password } = read.credentials;
    return { ok: true as const, login: { ssl_merchant_id: merchant.merchantId, ssl_user_id: username, ssl_pin: password } };
  };
  return {
    processor: "processor_c",
    async submit(request) {
      const body = message(request);
      const auth = identity(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.submit(auth.unusable);
      return submitOutcome(await http.post(`${root}/process`, { ...auth.login, ...body }), reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      const auth = identity(hostConfiguration);
      if (!auth.ok) return unusableCredentials.inquiry(auth.unusable);
      return inquiryOutcome(await http.post(`${root}/query`, { ...auth.login, ssl_invoice_number: transactionId }), reader);
    },
    async closeBatch(request) {
      const body = batchMessage(request);
      const auth = identity(request.hostConfiguration);
      if (!auth.ok) return unusableCredentials.batchClose(auth.unusable);
      return batchCloseOutcome(await http.post(`${root}/settle`, { ...auth.login, ...body }), readBatchAnswer);
    },
  };
}
