import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { BrokenLinkAlarm } from "../../audit/broken-link-alarm.ts";
import { auditEventSchema, toAuditEvent } from "../../audit/event-log.ts";
import { type ChainCheck, checkStreamLinks } from "../../audit/link-checks.ts";
import type { CardVault } from "../../commands/payment-methods/card-vault.ts";
import { createPaymentMethod, deletePaymentMethod, type PaymentsWithCard, type VaultContext } from "../../commands/payment-methods/payment-methods.ts";
import { openFingerprint } from "../../vault/card-vault.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import { storedCardSchema } from "../../domain/cards.ts";
import { paymentMethodStreamId, type PaymentMethodView } from "../../domain/payment-methods/decider.ts";
import type { Secret } from "../../domain/secret.ts";
import type { RecordedEvent } from "../../eventstore/port.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { cardSummarySchema } from "../card-summary-schema.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { claimedResourceId } from "../idempotency.ts";
import { decodeIdCursor, encodeIdCursor, listQuery, pageOf } from "../pagination.ts";
import { ApiProblem, notFound } from "../problems.ts";
import type { RouteDependencies } from "./dependencies.ts";
import { waitForPaymentMethodWrite } from "../../projections/payment-methods/own-writes.ts";
import { findPaymentMethod, paymentMethodsNewestFirst } from "../../projections/payment-methods/queries.ts";
import { awaitOwnPaymentWrites } from "../../projections/transactions/own-writes.ts";
import { paymentsMadeWith } from "../../projections/transactions/queries.ts";
import { paymentStreamId } from "../../domain/payments/index.ts";

export interface PaymentMethodRouteDependencies extends RouteDependencies {
  brokenLinks: BrokenLinkAlarm;
  secrets: SecretBox;
  fingerprint: (cardNumber: Secret<string>) => string;
  processorTimeoutMs: number;
  cardVault: CardVault;
  paymentsWithCard: PaymentsWithCard;
}

const paymentMethodSchema = z
  .object({
    id: z.uuid(),
    type: z.literal("card"),
    clientId: z.uuid(),
    card: cardSummarySchema,
    userId: z.string(),
    metadata: z.record(z.string(), z.string()),
    createdAt: z.string(),
  })
  .meta({ id: "PaymentMethod" });

const createBody = (now: () => Date) =>
  z.strictObject({
    card: storedCardSchema(now),
    userId: z.string().min(1).max(255).regex(/^\P{Cc}*$/u, "must not contain control characters"),
    metadata: z
      .record(z.string().min(1).max(40), z.string().max(500))
      .refine((value) => Object.keys(value).length <= 20, "at most 20 keys")
      .optional(),
  });

const idParams = z.strictObject({ id: z.uuid() });

/** What an auditor sees of a payment method's events: all but the card's ciphertext (its link checked on the stored event). */
function auditedEvent(event: RecordedEvent, chain: ChainCheck) {
  const audited = toAuditEvent(event, chain);
  const { encryptedCard, encryptedFingerprint, ...data } = audited.data;
  if (encryptedCard === undefined) return audited;
  return { ...audited, data: { ...data, encryptedCard: "[encrypted]", ...(encryptedFingerprint !== undefined && { encryptedFingerprint: "[encrypted]" }) } };
}

export const paymentMethodRoutes: FastifyPluginAsyncZod<PaymentMethodRouteDependencies> = async (app, deps) => {
  const { db, store } = deps;
  const tags = ["payment methods"];
  const context = (request: FastifyRequest): VaultContext => ({ ...deps, metadata: eventMetadataOf(request) });

  /** The caller's client, for the routes only client keys may call. */
  const clientIdOf = (request: FastifyRequest) => {
    const principal = principalOf(request);
    if (principal.role !== "client") throw new ApiProblem("forbidden", "Payment methods are made and deleted with client keys.");
    return principal.clientId;
  };

  /** The view, with its fingerprint decrypted (a method stored before it moved under its key has it in its view). */
  function viewOf(row: { payment_method_id: string; view: PaymentMethodView; encrypted_fingerprint: string | null; wrapped_key: string | null }): PaymentMethodView {
    const { view } = row;
    if (row.encrypted_fingerprint === null || row.wrapped_key === null) return view;
    const fingerprint = openFingerprint(deps.secrets, row.payment_method_id, row.wrapped_key, row.encrypted_fingerprint);
    return { ...view, card: { ...view.card, fingerprint } };
  }

  /** The row as the caller may see it: another client's is 404, and so is a deleted one unless asked for. */
  async function visible(request: FastifyRequest, id: string, { deleted = false } = {}) {
    const row = await findPaymentMethod(db, id);
    if (!row || !canSeeClient(principalOf(request), row.client_id) || (row.deleted_at !== null && !deleted)) {
      throw notFound("payment method");
    }
    return viewOf(row);
  }

  app.post(
    "/payment-methods",
    {
      config: { access: "client", createsResource: true, forgetsCardFingerprint: true },
      schema: {
        tags,
        operationId: "createPaymentMethod",
        summary: "Store a card, to charge it later by id",
        body: createBody(deps.now),
        response: { 201: paymentMethodSchema },
      },
    },
    async (request, reply) => {
      const { card, userId, metadata } = request.body;
      const created = await createPaymentMethod(context(request), {
        paymentMethodId: claimedResourceId(request),
        clientId: clientIdOf(request),
        userId,
        card,
        metadata: metadata ?? {},
      });
      if (!created.ok) throw new Error(created.detail);
      const { view, revision } = created.value;
      await waitForPaymentMethodWrite(deps, { paymentMethodId: view.id, revision, deleted: false });
      return reply.code(201).send(view);
    },
  );

  app.get(
    "/payment-methods/:id",
    {
      config: { access: "any" },
      schema: { tags, operationId: "getPaymentMethod", summary: "Get a payment method", params: idParams, response: { 200: paymentMethodSchema } },
    },
    async (request) => visible(request, request.params.id),
  );

  app.get(
    "/payment-methods",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listPaymentMethods",
        summary: "List payment methods, newest first",
        description: "Client keys see their own; admin keys see every client's, or one client's with `clientId`. Deleted ones are not listed.",
        querystring: listQuery.extend({ userId: z.string().min(1).max(255).optional(), clientId: z.uuid().optional() }),
        response: { 200: z.object({ data: z.array(paymentMethodSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId, userId, limit, cursor } = request.query;
      if (clientId && !canSeeClient(principal, clientId)) return { data: [], nextCursor: null };
      const ownClient = ownClientOf(principal) ?? clientId;
      const after = cursor === undefined ? undefined : decodeIdCursor(cursor);
      const found = await paymentMethodsNewestFirst(db, { clientId: ownClient, userId, after, limit });
      const page = pageOf(found, limit, (row) => encodeIdCursor(row.payment_method_id));
      return { data: page.data.map(viewOf), nextCursor: page.nextCursor };
    },
  );

  app.delete(
    "/payment-methods/:id",
    {
      config: { access: "client" },
      schema: {
        tags,
        operationId: "deletePaymentMethod",
        summary: "Delete a payment method: its card number becomes unrecoverable",
        params: idParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const deleted = await deletePaymentMethod(context(request), clientIdOf(request), request.params.id, deps.processorTimeoutMs);
      if (!deleted.ok && deleted.error === "payments_under_way") throw new ApiProblem("service_unavailable", deleted.detail);
      if (!deleted.ok) throw notFound("payment method");
      await waitForPaymentMethodWrite(deps, { paymentMethodId: request.params.id, revision: deleted.value.revision, deleted: true });
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/payment-methods/:id/events",
    {
      config: { access: "any" },
      schema: {
        tags: ["audit"],
        operationId: "listPaymentMethodEvents",
        summary: "The event stream of a payment method, oldest first: its creation, every use and its deletion",
        params: idParams,
        response: { 200: z.object({ streamId: z.string(), events: z.array(auditEventSchema) }) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { clientId } = await visible(request, id, { deleted: true });
      const streamId = paymentMethodStreamId(id);
      await awaitOwnPaymentWrites(deps, clientId);
      const [own, payments] = await Promise.all([store.readStream(streamId), paymentsMadeWith(db, clientId, id)]);
      const paymentStreams = await store.readStreams(payments.map(paymentStreamId));
      const intents = [...paymentStreams.values()].flatMap((events) => events.slice(0, 1)).filter((intent) => intent.data.paymentMethodId === id);
      const checks = checkStreamLinks(own);
      const audited = [
        ...own.map((event, index) => ({ event, audited: auditedEvent(event, checks[index]!) })),
        ...intents.map((intent) => ({ event: intent, audited: toAuditEvent(intent, checkStreamLinks([intent])[0]!) })),
      ];
      const events = audited.toSorted((a, b) => (a.event.position < b.event.position ? -1 : 1)).map((entry) => entry.audited);
      deps.brokenLinks.raise(events);
      return { streamId, events };
    },
  );
};
