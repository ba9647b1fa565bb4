import { z } from "zod";
import { hostConfigurationSchemas } from "../domain/host-configurations/schemas.ts";
import { toDecimalAmount } from "./decimal-amount.ts";
import { type AnswerReader, inquiryOutcome, submitOutcome, unusableCredentials } from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient } from "./http.ts";
import { compact } from "./json.ts";
import type { Operation, ProcessorConnector, ProcessorHostConfiguration, ProcessorRequest } from "./port.ts";
import { cardOf, parentOf, twoDigits } from "./request.ts";

/** processor_c: flat `ssl_` fields, decimal amounts, the user id and PIN in the body. */

const transactionTypes: Record<Operation, string> = {
  authorization: "ccauthonly",
  sale: "ccsale",
  capture: "cccomplete",
  refund: "ccreturn",
  void: "ccvoid",
};

/** Merchant and login fields, or `undefined` when the configuration has no usable credentials. */
function identity(hostConfiguration: ProcessorHostConfiguration) {
  const { merchant } = configurationFor("processor_c", hostConfiguration.view);
  const credentials = hostConfigurationSchemas.processor_c.credentials.safeParse(hostConfiguration.credentials);
  if (!credentials.success) return undefined;
  return {
    ssl_merchant_id: merchant.merchantId,
    ssl_user_id: credentials.data.username,
    ssl_pin: credentials.data.password,
  };
}

function message(request: ProcessorRequest) {
  const { merchant, settings } = configurationFor("processor_c", request.hostConfiguration.view);
  const card = cardOf(request);
  const parent = parentOf(request);
  return compact({
    ssl_transaction_type: transactionTypes[request.operation],
    ssl_platform_bin: merchant.platformBin,
    ssl_amex_se_number: merchant.amexSeNumber,
    ssl_terminal_id: settings.terminalId,
    ssl_client_number: settings.clientNumber,
    ssl_store_number: settings.storeNumber,
    ssl_invoice_number: request.transactionId,
    ssl_original_invoice_number: parent?.transactionId,
    ssl_txn_id: parent?.reference,
    ssl_amount: toDecimalAmount(request.amount, request.currency),
    ssl_transaction_currency: request.currency,
    ssl_card_number: card?.number,
    ssl_exp_date: card && `${twoDigits(card.expMonth)}${twoDigits(card.expYear)}`,
    ssl_cvv2cvc2_indicator: card && (card.cvc === undefined ? "0" : "1"),
    ssl_cvv2cvc2: card?.cvc,
    ssl_card_holder_name: card?.holderName,
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

export function createProcessorC(http: HttpClient, baseUrl: string): ProcessorConnector {
  const root = `${baseUrl}/processor_c/api`;
  return {
    processor: "processor_c",
    async submit(request) {
      const body = message(request);
      const login = identity(request.hostConfiguration);
      if (!login) return unusableCredentials.submit;
      return submitOutcome(await http.post(`${root}/process`, { ...login, ...body }), reader);
    },
    async inquire({ transactionId, hostConfiguration }) {
      const login = identity(hostConfiguration);
      if (!login) return unusableCredentials.inquiry;
      return inquiryOutcome(await http.post(`${root}/query`, { ...login, ssl_invoice_number: transactionId }), reader);
    },
  };
}
