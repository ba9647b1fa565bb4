import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Operation } from "../port.ts";
import { BATCH_CLOSE_BODY_LIMIT, parseOrReject, receivedMessage, type SimulatorContext } from "./context.ts";
import type { BatchSettled, SimulatedAnswer } from "./ledger.ts";
import * as f from "./wire-fields.ts";

/** Simulated processor_d: resource-style REST, a bearer API key, follow-ups under the payment. */

const acceptor = {
  acquirer: z.object({
    bin: f.digits(6),
    merchantId: f.alphanumeric(1, 15),
    institutionId: f.digitsBetween(1, 11).optional(),
    amexSeNumber: f.digits(10).optional(),
  }),
  terminal: z.object({
    terminalId: f.alphanumeric(8, 16),
    terminalNumber: f.digits(4).optional(),
    mcc: f.digits(4).optional(),
    mvv: f.hex10.optional(),
  }),
};

const common = {
  reference: f.reference,
  amount: z.object({ value: f.minorAmount, currency: f.currency }),
  ...acceptor,
};

const payment = z.object({
  ...common,
  capture: z.boolean(),
  paymentMethod: z.object({
    type: z.literal("card"),
    number: f.cardNumber,
    expiryMonth: z.number().int().min(1).max(12),
    expiryYear: z.number().int().min(2000).max(2100),
    cvc: f.cvc.optional(),
    holderName: f.holderName.optional(),
  }),
});
const followUp = z.object(common);
const settlement = z.object({ reference: f.reference, ...acceptor, payments: z.array(f.reference) });

const followUpOperations: Record<string, Operation> = { captures: "capture", refunds: "refund", reversals: "void" };

const statuses: Record<string, string> = {
  "00": "approved",
  "05": "declined",
  "51": "declined",
  "54": "declined",
  N7: "declined",
};

const answer = (a: SimulatedAnswer) => ({
  id: a.reference,
  status: statuses[a.code] ?? "failed",
  result: { code: a.code, message: a.message },
  ...(a.authorizationCode ? { authorizationCode: a.authorizationCode } : {}),
});

const settlementAnswer = (reference: string, { totals, settledTransactionIds }: BatchSettled) => ({
  object: "settlement",
  reference,
  status: "closed",
  result: { code: "00", message: "Approved" },
  settled_payments: settledTransactionIds,
  totals: totals.map((total) => ({
    currency: total.currency,
    sales: { count: total.salesCount, value: total.salesAmount },
    refunds: { count: total.refundsCount, value: total.refundsAmount },
    net: { value: total.netAmount },
  })),
});

/** The idempotency key must name the resource the body creates. */
function keyMatches(request: FastifyRequest, reply: FastifyReply, reference: string): boolean {
  if (request.headers["idempotency-key"] === reference) return true;
  void reply.code(400).send({ error: { type: "invalid_request", param: "idempotency-key" } });
  return false;
}

/** Any bearer key but the simulator's one rejected key (API.md). */
function authenticated(request: FastifyRequest, reply: FastifyReply): boolean {
  const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  if (key !== undefined && key !== "invalid-key") return true;
  void reply.code(401).send({ error: { type: "authentication_error", message: "Invalid API key" } });
  return false;
}

export function registerProcessorD(app: FastifyInstance, context: SimulatorContext): void {
  async function operate(
    request: FastifyRequest,
    reply: FastifyReply,
    operation: Operation,
    body: z.output<typeof followUp>,
    extra: { parentIds?: string[]; cardNumber?: string },
  ) {
    if (!keyMatches(request, reply, body.reference)) return reply;
    context.record(body.reference, receivedMessage("processor_d", request));
    const decision = await context.ledger.process({
      processor: "processor_d",
      operation,
      transactionId: body.reference,
      amount: body.amount.value,
      currency: body.amount.currency,
      merchantId: body.acquirer.merchantId,
      terminalId: body.terminal.terminalId,
      ...extra,
    });
    if (decision.hold) await context.hold();
    return answer(decision.answer);
  }

  app.post("/processor_d/v2/payments", async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const body = parseOrReject(payment, request.body, reply);
    if (!body) return reply;
    return operate(request, reply, body.capture ? "sale" : "authorization", body, { cardNumber: body.paymentMethod.number });
  });

  app.post<{ Params: { id: string; kind: string } }>("/processor_d/v2/payments/:id/:kind", async (request, reply) => {
    const operation = followUpOperations[request.params.kind];
    if (!operation) return reply.code(404).send({ error: { type: "invalid_request", message: "Unknown resource" } });
    if (!authenticated(request, reply)) return reply;
    const body = parseOrReject(followUp, request.body, reply);
    if (!body) return reply;
    return operate(request, reply, operation, body, { parentIds: [request.params.id] });
  });

  app.post("/processor_d/v2/settlements", { bodyLimit: BATCH_CLOSE_BODY_LIMIT }, async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const body = parseOrReject(settlement, request.body, reply);
    if (!body || !keyMatches(request, reply, body.reference)) return reply;
    context.record(body.reference, receivedMessage("processor_d", request));
    const settled = await context.ledger.closeBatch({
      processor: "processor_d",
      batchId: body.reference,
      merchantId: body.acquirer.merchantId,
      terminalId: body.terminal.terminalId,
      transactionIds: body.payments,
    });
    return settlementAnswer(body.reference, settled);
  });

  app.get<{ Params: { reference: string } }>("/processor_d/v2/references/:reference", async (request, reply) => {
    if (!authenticated(request, reply)) return reply;
    const found = await context.ledger.inquire("processor_d", request.params.reference);
    if (!found) return reply.code(404).send({ error: { type: "resource_missing", message: "No such payment" } });
    return answer(found);
  });
}
