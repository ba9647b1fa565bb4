import { z } from "zod";
import type { HostConfigurationFields } from "../domain/host-configurations/schemas.ts";
import { defineConnector, readWith } from "./connector.ts";
import { minorUnitsOfDecimal, toDecimalAmount } from "./decimal-amount.ts";
import { compact } from "./json.ts";
import type { Operation } from "./port.ts";
import { twoDigits } from "./request.ts";

/** processor_c: flat `ssl_` fields, decimal amounts, the user id and PIN in the body. */

const transactionTypes: Record<Operation, string> = {
  authorization: "ccauthonly",
  sale: "ccsale",
  capture: "cccomplete",
  refund: "ccreturn",
  void: "ccvoid",
};

/** The platform and terminal fields every message carries besides the login. */
function terminal({ merchant, settings }: HostConfigurationFields<"processor_c">) {
  return {
    ssl_platform_bin: merchant.platformBin,
    ssl_amex_se_number: merchant.amexSeNumber,
    ssl_terminal_id: settings.terminalId,
    ssl_client_number: settings.clientNumber,
    ssl_store_number: settings.storeNumber,
  };
}

const answerSchema = z.object({
  ssl_response_code: z.string(),
  ssl_result_message: z.string().optional(),
  ssl_approval_code: z.string().optional(),
  ssl_txn_id: z.string().optional(),
});

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

export const processorC = defineConnector({
  processor: "processor_c",
  root: "/processor_c/api",
  /** The merchant and login fields every message starts with. */
  credentials: ({ username, password }, { merchant }) => ({
    fields: { ssl_merchant_id: merchant.merchantId, ssl_user_id: username, ssl_pin: password },
  }),
  submit: ({ request, card, parent, configuration }) => ({
    path: "process",
    body: compact({
      ssl_transaction_type: transactionTypes[request.operation],
      ...terminal(configuration),
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
    }),
  }),
  inquiry: (transactionId) => ({ path: "query", body: { ssl_invoice_number: transactionId } }),
  /** A settle request: the batch number is our settlement id, the invoice numbers our transaction ids. */
  batchClose: (request, configuration) => ({
    path: "settle",
    body: compact({
      ssl_transaction_type: "ccsettle",
      ...terminal(configuration),
      ssl_batch_number: request.settlementId,
      ssl_invoice_numbers: [...request.transactionIds],
    }),
  }),
  answer: readWith(answerSchema, (data) => ({
    code: data.ssl_response_code,
    message: data.ssl_result_message,
    authorizationCode: data.ssl_approval_code,
    reference: data.ssl_txn_id,
  })),
  notFound: z.object({ errorCode: z.literal("5040") }),
  batchAnswer: readWith(batchAnswerSchema, (data) => ({
    code: data.ssl_response_code,
    message: data.ssl_result_message,
    totals: data.ssl_batch_totals,
    transactionIds: data.ssl_settled_invoice_numbers,
  })),
});
