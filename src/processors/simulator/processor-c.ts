import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { decimalAmountOf, minorUnitsOf } from "./decimal-amount.ts";
import type { Operation } from "../port.ts";
import { BATCH_CLOSE_BODY_LIMIT, parseOrReject, receivedMessage, type SimulatorContext } from "./context.ts";
import type { BatchSettled, SimulatedAnswer } from "./ledger.ts";
import * as f from "./wire-fields.ts";

/** Simulated processor_c: flat `ssl_` fields, decimal amounts, user id and PIN in the body. */

const transactionType = z.enum(["ccauthonly", "ccsale", "cccomplete", "ccreturn", "ccvoid"]);
const operations: Record<z.output<typeof transactionType>, Operation> = {
  ccauthonly: "authorization",
  ccsale: "sale",
  cccomplete: "capture",
  ccreturn: "refund",
  ccvoid: "void",
};

const login = {
  ssl_merchant_id: z.string().regex(/^([0-9]{6}|[0-9]{12})$/),
  ssl_user_id: z.string().min(1).max(128),
  ssl_pin: z.string().min(1).max(256),
};

const terminal = {
  ssl_platform_bin: z.enum(["000001", "000002"]),
  ssl_amex_se_number: f.digits(10).optional(),
  ssl_terminal_id: f.digits(3),
  ssl_client_number: f.digits(4).optional(),
  ssl_store_number: f.digits(4).optional(),
};

/** The merchant id's length goes with the platform: 6 digits on 000001, 12 on 000002. */
const merchantIdFitsPlatform = (m: { ssl_merchant_id: string; ssl_platform_bin: string }) =>
  m.ssl_merchant_id.length === (m.ssl_platform_bin === "000001" ? 6 : 12);

const message = z
  .object({
    ...login,
    ...terminal,
    ssl_transaction_type: transactionType,
    ssl_invoice_number: f.reference,
    ssl_original_invoice_number: f.reference.optional(),
    ssl_txn_id: f.reference.optional(),
    ssl_amount: z.string(),
    ssl_transaction_currency: f.currency,
    ssl_card_number: f.cardNumber.optional(),
    ssl_exp_date: f.fourDigitExpiry.optional(),
    ssl_cvv2cvc2_indicator: z.enum(["0", "1"]).optional(),
    ssl_cvv2cvc2: f.cvc.optional(),
    ssl_card_holder_name: f.holderName.optional(),
  })
  .refine(merchantIdFitsPlatform, { path: ["ssl_merchant_id"] });

const settle = z
  .object({
    ...login,
    ...terminal,
    ssl_transaction_type: z.literal("ccsettle"),
    ssl_batch_number: f.reference,
    ssl_invoice_numbers: z.array(f.reference),
  })
  .refine(merchantIdFitsPlatform, { path: ["ssl_merchant_id"] });

const query = z.object({ ...login, ssl_invoice_number: f.reference });

const answer = (a: SimulatedAnswer) => ({
  ssl_result: a.code === "00" ? "0" : "1",
  ssl_response_code: a.code,
  ssl_result_message: a.message,
  ssl_txn_id: a.reference,
  ...(a.authorizationCode ? { ssl_approval_code: a.authorizationCode } : {}),
});

/** Totals as processor_c writes amounts: decimal strings in the currency's decimals, counts as text. */
const settleAnswer = (batchNumber: string, { totals, settledTransactionIds }: BatchSettled) => ({
  ssl_result: "0",
  ssl_response_code: "00",
  ssl_result_message: "Approved",
  ssl_batch_number: batchNumber,
  ssl_settled_invoice_numbers: settledTransactionIds,
  ssl_batch_totals: totals.map((total) => ({
    ssl_transaction_currency: total.currency,
    ssl_sale_count: String(total.salesCount),
    ssl_sale_amount: decimalAmountOf(total.salesAmount, total.currency),
    ssl_return_count: String(total.refundsCount),
    ssl_return_amount: decimalAmountOf(total.refundsAmount, total.currency),
    ssl_net_amount: decimalAmountOf(total.netAmount, total.currency),
  })),
});

/** The simulator's one rejected password (API.md). */
function authenticated(pin: string, reply: FastifyReply): boolean {
  if (pin !== "invalid-password") return true;
  void reply.code(401).send({ errorCode: "4025", errorName: "Invalid credentials" });
  return false;
}

export function registerProcessorC(app: FastifyInstance, context: SimulatorContext): void {
  app.post("/processor_c/api/process", async (request, reply) => {
    const body = parseOrReject(message, request.body, reply);
    if (!body) return reply;
    if (!authenticated(body.ssl_pin, reply)) return reply;
    const operation = operations[body.ssl_transaction_type];
    const followUp = operation !== "authorization" && operation !== "sale";
    const amount = minorUnitsOf(body.ssl_amount, body.ssl_transaction_currency);
    const parentIds = [body.ssl_txn_id, body.ssl_original_invoice_number].filter((id) => id !== undefined);
    const wrong = [
      amount === undefined && "ssl_amount",
      followUp && parentIds.length === 0 && "ssl_original_invoice_number",
      !followUp && !body.ssl_card_number && "ssl_card_number",
      !followUp && !body.ssl_exp_date && "ssl_exp_date",
    ].filter((field) => field !== false);
    if (wrong.length > 0 || amount === undefined) return reply.code(400).send({ error: "malformed_message", fields: wrong });

    context.record(body.ssl_invoice_number, receivedMessage("processor_c", request));
    const decision = await context.ledger.process({
      processor: "processor_c",
      operation,
      transactionId: body.ssl_invoice_number,
      parentIds,
      amount,
      currency: body.ssl_transaction_currency,
      merchantId: body.ssl_merchant_id,
      terminalId: body.ssl_terminal_id,
      ...(body.ssl_card_number ? { cardNumber: body.ssl_card_number } : {}),
    });
    if (decision.hold) await context.hold();
    return answer(decision.answer);
  });

  app.post("/processor_c/api/settle", { bodyLimit: BATCH_CLOSE_BODY_LIMIT }, async (request, reply) => {
    const body = parseOrReject(settle, request.body, reply);
    if (!body) return reply;
    if (!authenticated(body.ssl_pin, reply)) return reply;
    context.record(body.ssl_batch_number, receivedMessage("processor_c", request));
    const settled = await context.ledger.closeBatch({
      processor: "processor_c",
      batchId: body.ssl_batch_number,
      merchantId: body.ssl_merchant_id,
      terminalId: body.ssl_terminal_id,
      transactionIds: body.ssl_invoice_numbers,
    });
    return settleAnswer(body.ssl_batch_number, settled);
  });

  app.post("/processor_c/api/query", async (request, reply) => {
    const body = parseOrReject(query, request.body, reply);
    if (!body) return reply;
    if (!authenticated(body.ssl_pin, reply)) return reply;
    const found = await context.ledger.inquire("processor_c", body.ssl_invoice_number);
    if (!found) return reply.code(404).send({ errorCode: "5040", errorName: "Transaction not found" });
    return answer(found);
  });
}
