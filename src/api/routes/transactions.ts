import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { timestamp, upperBoundOf } from "../pagination.ts";
import { z } from "zod";
import type { BrokenLinkAlarm } from "../../audit/broken-link-alarm.ts";
import type { PaymentContext } from "../../commands/payments/dependencies.ts";
import { runFollowUp } from "../../commands/payments/follow-up.ts";
import { type TransactionAsItStands, transactionAsItStands } from "../../commands/payments/run-transaction.ts";
import { startPayment } from "../../commands/payments/start-payment.ts";
import { type StoredCardRequest, storedCardFor } from "../../commands/payment-methods/stored-card.ts";
import { cardSchema, cvcLength, isExpired, isValidCvc } from "../../domain/cards.ts";
import { processors } from "../../domain/host-configurations/schemas.ts";
import { Secret } from "../../domain/secret.ts";
import { amountSchema, currencySchema } from "../../domain/money.ts";
import type { TransactionView } from "../../domain/payments/index.ts";
import { ownClientOf, principalOf } from "../auth.ts";
import { transactionAsOf, transactionReadSchema } from "../transaction-as-of.ts";
import { transactionSchema } from "../transaction-schema.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { ApiProblem, notFound, type ProblemCode } from "../problems.ts";
import type { TransactionRouteDependencies } from "./dependencies.ts";
import { awaitOwnPaymentWrites, rememberPaymentWrite } from "../../projections/transactions/own-writes.ts";
import { findTransaction } from "../../projections/transactions/queries.ts";
import { readCaughtUp } from "../../projections/transactions/read-caught-up.ts";
import { newId } from "../../ids.ts";
import { answeringWithTransaction, bindIdempotencyKey, REPLAYED_HEADER } from "../idempotency.ts";


// Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused at the edge for every route.
const printable = (max: number) => z.string().min(1).max(max).regex(/^\P{Cc}*$/u, "must not contain control characters");
const metadataSchema = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 20, "at most 20 keys");

const followUpTarget = { transactionId: z.uuid() };

type Result = TransactionAsItStands | { ok: false; error: ProblemCode | "already_exists"; detail: string };

/** A transaction made by a command under a new id, or the one the request's Idempotency-Key is bound to. */
type MakeTransaction = (context: PaymentContext, transactionId: string) => Promise<Result>;

/** GET with asOf folds events: a broken link among them is logged and counted as the events routes do. */
type TransactionRoutesOptions = TransactionRouteDependencies & { brokenLinks: BrokenLinkAlarm };

export const transactionRoutes: FastifyPluginAsyncZod<TransactionRoutesOptions> = async (app, deps) => {
  const tags = ["transactions"];
  const context = (request: FastifyRequest): PaymentContext => ({
    ...deps,
    metadata: eventMetadataOf(request),
    logger: request.log,
    bindIdempotencyKey: bindIdempotencyKey(request),
  });
  /**
   * A retry under an Idempotency-Key bound to a transaction answers with that transaction as it
   * stands; only a transaction whose intent never got recorded is made (once, under its id).
   */
  async function respond(request: FastifyRequest, reply: FastifyReply, make: MakeTransaction) {
    const paymentContext = context(request);
    const bound = request.idempotency?.bound;
    if (bound) {
      const existing = await transactionAsItStands(paymentContext, bound);
      answeringWithTransaction(request, existing?.transaction);
      if (existing) return answer(reply.header(REPLAYED_HEADER, "true"), rememberedForReads(existing));
    }
    const made = await make(paymentContext, bound?.transactionId ?? request.idempotency?.newTransactionId ?? newId());
    if (made.ok) answeringWithTransaction(request, rememberedForReads(made).transaction);
    return answer(reply, made);
  }
  /** The client's next reads on this instance (GET by id, the history list) wait until the read model shows this answer. */
  const rememberedForReads = (answered: TransactionAsItStands) => {
    const { written } = answered;
    if (written) rememberPaymentWrite(deps, written.clientId, written.paymentId, written.revision);
    return answered;
  };
  const clientIdOf = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (principal.role !== "client") throw new ApiProblem("forbidden", "Transactions are made with client keys.");
    return principal.clientId;
  };
  const rootBody = z
    .strictObject({
      processor: z.enum(processors),
      amount: amountSchema,
      currency: currencySchema,
      card: cardSchema(deps.now).optional(),
      paymentMethodId: z.uuid().optional().describe("A stored card (`POST /v1/payment-methods`), instead of `card`."),
      cvc: z
        .string()
        .transform((cvc) => new Secret(cvc))
        .optional()
        .describe("The stored card's CVC, with `paymentMethodId` only (it is never stored)."),
      userId: printable(255),
      reference: printable(255).optional(),
      metadata: metadataSchema.optional(),
      hostConfigurationId: z.uuid().optional(),
    })
    .superRefine((body, ctx) => {
      if ((body.card === undefined) === (body.paymentMethodId === undefined)) {
        ctx.addIssue({ code: "custom", path: ["card"], message: "give exactly one of card and paymentMethodId" });
      }
      if (body.cvc !== undefined && body.paymentMethodId === undefined) {
        ctx.addIssue({ code: "custom", path: ["cvc"], message: "goes with paymentMethodId; with card, send card.cvc" });
      }
    });

  for (const type of ["authorization", "sale"] as const) {
    app.post(
      `/transactions/${type}`,
      {
        config: { access: "client", startsPayment: true },
        schema: { operationId: `create${type === "sale" ? "Sale" : "Authorization"}`, tags, summary: `Create a${type === "sale" ? " sale" : "n authorization"}`, body: rootBody, response: { 201: transactionSchema } },
      },
      async (request, reply) => {
        const { card, paymentMethodId, cvc, reference, metadata, hostConfigurationId, ...rest } = request.body;
        const clientId = clientIdOf(request);
        return respond(request, reply, async (paymentContext, transactionId) => {
          const paying = card
            ? { ok: true as const, value: { card } }
            : await storedCardOf(paymentContext, { paymentMethodId: paymentMethodId!, clientId, cvc }, rest.userId);
          if (!paying.ok) return paying;
          return startPayment(paymentContext, {
            ...rest,
            paying: paying.value,
            transactionId,
            type,
            clientId,
            reference: reference ?? null,
            metadata: metadata ?? {},
            hostConfigurationId,
          });
        });
      },
    );
  }

  app.post(
    "/transactions/capture",
    {
      config: { access: "client" },
      schema: {
        tags,
        operationId: "createCapture",
        summary: "Capture an authorization, in full or in part",
        body: z.strictObject({
          ...followUpTarget,
          amount: amountSchema.optional(),
          final: z
            .boolean()
            .optional()
            .describe("Releases what is left of the authorization at the processor once this capture is approved, as a void of it does (default false)."),
        }),
        response: { 201: transactionSchema },
      },
    },
    async (request, reply) => {
      const { transactionId: parentTransactionId, amount, final } = request.body;
      const clientId = clientIdOf(request);
      return respond(request, reply, (paymentContext, transactionId) =>
        runFollowUp(paymentContext, clientId, { type: "capture", transactionId, parentTransactionId, amount, final: final ?? false }),
      );
    },
  );

  app.post(
    "/transactions/refund",
    {
      config: { access: "client" },
      schema: {
        tags,
        operationId: "createRefund",
        summary: "Refund a sale or capture, in full or in part",
        body: z.strictObject({ ...followUpTarget, amount: amountSchema.optional(), reason: printable(500).optional() }),
        response: { 201: transactionSchema },
      },
    },
    async (request, reply) => {
      const { transactionId: parentTransactionId, amount, reason } = request.body;
      const clientId = clientIdOf(request);
      return respond(request, reply, (paymentContext, transactionId) =>
        runFollowUp(paymentContext, clientId, { type: "refund", transactionId, parentTransactionId, amount, reason: reason ?? null }),
      );
    },
  );

  app.post(
    "/transactions/void",
    {
      config: { access: "client" },
      schema: {
        tags,
        operationId: "createVoid",
        summary: "Void an authorization (with captures: release its uncaptured rest), or an unsettled sale or capture",
        body: z.strictObject(followUpTarget),
        response: { 201: transactionSchema },
      },
    },
    async (request, reply) => {
      const parentTransactionId = request.body.transactionId;
      const clientId = clientIdOf(request);
      return respond(request, reply, (paymentContext, transactionId) =>
        runFollowUp(paymentContext, clientId, { type: "void", transactionId, parentTransactionId }),
      );
    },
  );

  app.get(
    "/transactions/:id",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "getTransaction",
        summary: "Get a transaction; with asOf, its state at that moment, folded from its events",
        params: z.strictObject({ id: z.uuid() }),
        querystring: z.strictObject({
          asOf: timestamp.optional().describe("An ISO timestamp, or a UTC date alone: the state at the end of that day."),
        }),
        response: { 200: transactionReadSchema },
      },
    },
    async (request) => {
      const ownClient = ownClientOf(principalOf(request));
      await awaitOwnPaymentWrites(deps, ownClient);
      const found = await readCaughtUp(deps, () => findTransaction(deps.db, request.params.id, ownClient));
      if (!found) throw notFound("transaction");
      const { asOf } = request.query;
      if (asOf === undefined) return found.view;
      const past = await transactionAsOf(deps.store, found.paymentId, request.params.id, upperBoundOf(asOf));
      deps.brokenLinks.raise(past.brokenEvents);
      if (!past.transaction) throw notFound("transaction at that moment");
      return { ...past.transaction, brokenLinks: past.brokenEvents.length, brokenEvents: past.brokenEvents };
    },
  );
};

/**
 * The stored card for a payment, with the CVC sent beside it, checked as `card.cvc` would be; a
 * card stored for another user is refused.
 * An expired stored card is refused as an inline one is, before anything is recorded. Its use is
 * recorded with the payment's intent, which decrypts it (`startPayment`).
 */
async function storedCardOf(context: PaymentContext, request: StoredCardRequest, userId: string) {
  const { cvc } = request;
  const found = await storedCardFor(context, request);
  if (!found.ok) return found;
  const { summary } = found.value;
  if (found.value.userId !== userId) {
    throw new ApiProblem("payment_method_user_mismatch", "The payment method belongs to another userId: nothing was recorded or sent.", {
      errors: [{ path: "userId", message: "must be the payment method's userId" }],
    });
  }
  // Exposed to be checked against the stored card's brand, known only now.
  if (cvc !== undefined && !isValidCvc(cvc.expose(), summary.brand)) {
    const message = `must be ${cvcLength(summary.brand)} digits`;
    throw new ApiProblem("validation_error", `cvc ${message}.`, { errors: [{ path: "cvc", message }] });
  }
  if (isExpired(summary.expMonth, summary.expYear, context.now())) {
    const message = "the stored card has expired";
    throw new ApiProblem("validation_error", "The payment method's card has expired.", { errors: [{ path: "paymentMethodId", message }] });
  }
  return { ok: true as const, value: { storedCard: found.value } };
}

/** What the processor said, as `: Insufficient funds (51)`; nothing when it said nothing. */
const saying = ({ processorResponse }: TransactionView) =>
  processorResponse ? `: ${processorResponse.message} (${processorResponse.code})` : "";

function failureDetail(transaction: TransactionView): string {
  switch (transaction.failureReason) {
    case "reversed":
      return "The processor's answer never came in time, so the transaction was reversed at the processor: nothing was charged.";
    case "not_found":
      return "The processor has no trace of the transaction: nothing was charged.";
    default:
      return `The processor could not process the transaction${saying(transaction)}.`;
  }
}

/** Approved: 201. Declined, failed or unknown: the error status, with the recorded transaction. */
function answer(reply: FastifyReply, result: Result) {
  if (!result.ok) {
    if (result.error === "already_exists") throw new Error(result.detail);
    throw new ApiProblem(result.error, result.detail);
  }
  const { transaction, limitBreach } = result;
  switch (transaction.status) {
    case "approved":
      return reply.code(201).send(transaction);
    case "pending":
      throw new ApiProblem(
        "processor_timeout",
        "The processor did not answer in time; the transaction stays pending until it does.",
        { transaction },
      );
    case "declined":
      if (transaction.declineCode === "limit_exceeded") {
        // Declines recorded before 2026-11-27 kept no breach: their retries name no limit.
        throw limitBreach
          ? new ApiProblem(
              "limit_exceeded",
              `The client's ${limitBreach.limit} limit in ${transaction.currency} would be exceeded.`,
              { transaction, limit: { currency: transaction.currency, ...limitBreach } },
            )
          : new ApiProblem("limit_exceeded", `The client's limit in ${transaction.currency} would be exceeded.`, { transaction });
      }
      throw new ApiProblem(transaction.declineCode ?? "card_declined", `The card was declined${saying(transaction)}.`, { transaction });
    case "failed":
      if (transaction.failureReason === "payment_method_deleted") {
        throw new ApiProblem("not_found", "The payment method was deleted while the payment was under way: nothing was sent to the processor.", {
          transaction,
        });
      }
      // A reversed transaction's outcome never came back from the processor, nor did one the
      // processor found no trace of: to the client, both are processor errors too.
      if (transaction.failureReason === "processor_authentication_failed") {
        // Credentials the connector could not send at all never reached the processor to be rejected.
        const whose = transaction.processorResponse?.code === "credentials_unusable" ? "The connector could not send" : "The processor rejected";
        throw new ApiProblem(
          "processor_authentication_failed",
          `${whose} the credentials of host configuration ${transaction.hostConfigurationId}${saying(transaction)}: ` +
            `replace them with PUT /v1/host-configurations/${transaction.processor}/${transaction.hostConfigurationId}.`,
          { transaction },
        );
      }
      throw new ApiProblem("processor_error", failureDetail(transaction), { transaction });
  }
}
