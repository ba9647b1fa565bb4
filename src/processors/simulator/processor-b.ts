import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Operation } from "../port.ts";
import { BATCH_CLOSE_BODY_LIMIT, parseOrReject, receivedMessage, type SimulatorContext } from "./context.ts";
import type { BatchSettled, SimulatedAnswer } from "./ledger.ts";
import * as f from "./wire-fields.ts";

/** Simulated processor_b: a header/transaction envelope, the Datawire id in `x-datawire-id`. */

const transactionType = z.enum(["AUTH", "SALE", "COMPLETION", "REFUND", "REVERSAL"]);
const operations: Record<z.output<typeof transactionType>, Operation> = {
  AUTH: "authorization",
  SALE: "sale",
  COMPLETION: "capture",
  REFUND: "refund",
  REVERSAL: "void",
};

const header = z.object({
  merchantId: f.alphanumeric(1, 16),
  groupId: f.alphanumeric(5, 13),
  tppId: f.alphanumeric(6, 6),
  amexSeNumber: f.alphanumeric(1, 15).optional(),
  terminalId: f.alphanumeric(1, 8),
  mcc: f.digits(4),
  mvv: f.digitsBetween(1, 10).optional(),
});

const message = z.object({
  header,
  transaction: z.object({
    type: transactionType,
    clientRef: f.reference,
    originalClientRef: f.reference.optional(),
    originalReferenceNumber: f.reference.optional(),
    amount: z.object({ value: f.minorAmount, currency: f.currency }),
    card: z
      .object({
        accountNumber: f.cardNumber,
        expirationDate: f.fourDigitExpiry,
        securityCode: f.cvc.optional(),
        cardholderName: f.holderName.optional(),
      })
      .optional(),
  }),
});

const answer = (a: SimulatedAnswer) => ({
  result: {
    responseCode: a.code,
    responseMessage: a.message,
    referenceNumber: a.reference,
    ...(a.authorizationCode ? { authId: a.authorizationCode } : {}),
  },
});

const batchClose = z.object({
  header,
  batch: z.object({ type: z.literal("CLOSE"), batchRef: f.reference, clientRefs: z.array(f.reference) }),
});

const batchAnswer = (batchRef: string, { totals, settledTransactionIds }: BatchSettled) => ({
  result: { responseCode: "00", responseMessage: "Approved" },
  batch: {
    batchRef,
    settledClientRefs: settledTransactionIds,
    totals: totals.map((total) => ({
      currency: total.currency,
      saleCount: total.salesCount,
      saleValue: total.salesAmount,
      refundCount: total.refundsCount,
      refundValue: total.refundsAmount,
      netValue: total.netAmount,
    })),
  },
});

/** Any well-formed Datawire id is accepted. */
function authenticated(request: FastifyRequest, reply: FastifyReply): boolean {
  if (/^[0-9]{20}$/.test(String(request.headers["x-datawire-id"] ?? ""))) return true;
  void reply.code(401).send({ error: { code: "UNAUTHORIZED", message: "Unknown Datawire id" } });
  return false;
}

export function registerProcessorB(app: FastifyInstance, context: SimulatorContext): void {
  app.post("/processor_b/transactions", async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const body = parseOrReject(message, request.body, reply);
    if (!body) return reply;
    const { transaction } = body;
    const operation = operations[transaction.type];
    const followUp = operation !== "authorization" && operation !== "sale";
    const parentIds = [transaction.originalReferenceNumber, transaction.originalClientRef].filter((id) => id !== undefined);
    const wrong = [
      followUp && parentIds.length === 0 && "transaction.originalClientRef",
      !followUp && !transaction.card && "transaction.card",
    ].filter((field) => field !== false);
    if (wrong.length > 0) return reply.code(400).send({ error: "malformed_message", fields: wrong });

    context.record(transaction.clientRef, receivedMessage("processor_b", request));
    const decision = await context.ledger.process({
      processor: "processor_b",
      operation,
      transactionId: transaction.clientRef,
      parentIds,
      amount: transaction.amount.value,
      currency: transaction.amount.currency,
      merchantId: body.header.merchantId,
      terminalId: body.header.terminalId,
      ...(transaction.card ? { cardNumber: transaction.card.accountNumber } : {}),
    });
    if (decision.hold) await context.hold();
    return answer(decision.answer);
  });

  app.post("/processor_b/batches", { bodyLimit: BATCH_CLOSE_BODY_LIMIT }, async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const body = parseOrReject(batchClose, request.body, reply);
    if (!body) return reply;
    context.record(body.batch.batchRef, receivedMessage("processor_b", request));
    const settled = await context.ledger.closeBatch({
      processor: "processor_b",
      batchId: body.batch.batchRef,
      merchantId: body.header.merchantId,
      terminalId: body.header.terminalId,
      transactionIds: body.batch.clientRefs,
    });
    return batchAnswer(body.batch.batchRef, settled);
  });

  app.get<{ Params: { clientRef: string } }>("/processor_b/transactions/:clientRef", async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const found = await context.ledger.inquire("processor_b", request.params.clientRef);
    if (!found) return reply.code(404).send({ error: { code: "TRANSACTION_NOT_FOUND", message: "No such transaction" } });
    return answer(found);
  });
}
