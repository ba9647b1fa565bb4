import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { Operation } from "../port.ts";
import { BATCH_CLOSE_BODY_LIMIT, parseOrReject, receivedMessage, type SimulatorContext } from "./context.ts";
import type { BatchSettled, SimulatedAnswer } from "./ledger.ts";
import * as f from "./wire-fields.ts";

/** Simulated processor_a: ISO 8583 flavoured JSON, one path per operation. */

const operations: Record<string, { operation: Operation; messageType: string }> = {
  authorize: { operation: "authorization", messageType: "0100" },
  sale: { operation: "sale", messageType: "0200" },
  capture: { operation: "capture", messageType: "0220" },
  refund: { operation: "refund", messageType: "0200" },
  void: { operation: "void", messageType: "0400" },
};

const merchant = z.object({ merchantNumber: f.digits(12), acquirerBin: f.digits(6), amexSeNumber: f.digits(10).optional() });
const terminal = z.object({
  agentBank: f.digits(6),
  agentChain: f.digits(6),
  storeNumber: f.digits(4),
  terminalNumber: f.digits(4),
  terminalId: f.digits(8),
  mcc: f.digits(4),
  mvv: f.hex10.optional(),
  industryCode: z.enum(["D", "F", "G", "R"]).optional(),
});

const message = z.object({
  messageType: z.enum(["0100", "0200", "0220", "0400"]),
  processingCode: z.enum(["000000", "200000"]),
  transactionReference: f.reference,
  originalTransactionReference: f.reference.optional(),
  originalRetrievalReferenceNumber: f.reference.optional(),
  amount: f.digits(12),
  currency: f.currency,
  merchant,
  terminal,
  card: z
    .object({
      pan: f.cardNumber,
      expiry: f.fourDigitExpiry,
      cvv2: f.cvc.optional(),
      cardholderName: f.holderName.optional(),
    })
    .optional(),
});

const answer = (a: SimulatedAnswer) => ({
  responseCode: a.code,
  responseText: a.message,
  retrievalReferenceNumber: a.reference,
  ...(a.authorizationCode ? { approvalCode: a.authorizationCode } : {}),
});

/** A 0500 reconciliation request. */
const batchClose = z.object({
  messageType: z.literal("0500"),
  processingCode: z.literal("920000"),
  batchReference: f.reference,
  transactionReferences: z.array(f.reference),
  merchant,
  terminal,
});

const padded = (value: number, length: number) => String(value).padStart(length, "0");

/** A 0510 with n10 counts, n16 amounts and the net signed C (credit to the merchant) or D. */
const batchAnswer = (batchReference: string, { totals, settledTransactionIds }: BatchSettled) => ({
  messageType: "0510",
  responseCode: "00",
  responseText: "Approved",
  batchReference,
  settledTransactionReferences: settledTransactionIds,
  totals: totals.map((total) => ({
    currency: total.currency,
    salesCount: padded(total.salesCount, 10),
    salesAmount: padded(total.salesAmount, 16),
    refundsCount: padded(total.refundsCount, 10),
    refundsAmount: padded(total.refundsAmount, 16),
    netAmount: `${total.netAmount < 0 ? "D" : "C"}${padded(Math.abs(total.netAmount), 16)}`,
  })),
});

export function registerProcessorA(app: FastifyInstance, context: SimulatorContext): void {
  app.post("/processor_a/v1/batch-close", { bodyLimit: BATCH_CLOSE_BODY_LIMIT }, async (request, reply) => {
    const body = parseOrReject(batchClose, request.body, reply);
    if (!body) return reply;
    context.record(body.batchReference, receivedMessage("processor_a", request));
    const settled = await context.ledger.closeBatch({
      processor: "processor_a",
      batchId: body.batchReference,
      merchantId: body.merchant.merchantNumber,
      terminalId: body.terminal.terminalId,
      transactionIds: body.transactionReferences,
    });
    return batchAnswer(body.batchReference, settled);
  });

  app.post<{ Params: { action: string } }>("/processor_a/v1/:action", async (request, reply) => {
    const route = operations[request.params.action];
    if (!route) return reply.code(404).send({ responseCode: "12", responseText: "Unknown operation" });
    const body = parseOrReject(message, request.body, reply);
    if (!body) return reply;
    const parentIds = [body.originalRetrievalReferenceNumber, body.originalTransactionReference].filter(
      (id) => id !== undefined,
    );
    const followUp = route.operation !== "authorization" && route.operation !== "sale";
    const wrong = [
      body.messageType !== route.messageType && "messageType",
      (body.processingCode === "200000") !== (route.operation === "refund") && "processingCode",
      followUp && parentIds.length === 0 && "originalTransactionReference",
      !followUp && !body.card && "card",
    ].filter((field) => field !== false);
    if (wrong.length > 0) return reply.code(400).send({ error: "malformed_message", fields: wrong });

    context.record(body.transactionReference, receivedMessage("processor_a", request));
    const decision = await context.ledger.process({
      processor: "processor_a",
      operation: route.operation,
      transactionId: body.transactionReference,
      parentIds,
      amount: Number(body.amount),
      currency: body.currency,
      merchantId: body.merchant.merchantNumber,
      terminalId: body.terminal.terminalId,
      ...(body.card ? { cardNumber: body.card.pan } : {}),
    });
    if (decision.hold) await context.hold();
    return answer(decision.answer);
  });

  app.get<{ Params: { id: string }; Querystring: unknown }>("/processor_a/v1/transactions/:id", async (request, reply) => {
    if (!parseOrReject(z.object({ merchantNumber: f.digits(12) }), request.query, reply)) return reply;
    const found = await context.ledger.inquire("processor_a", request.params.id);
    if (!found) return reply.code(404).send({ responseCode: "25", responseText: "Unable to locate record" });
    return answer(found);
  });
}
