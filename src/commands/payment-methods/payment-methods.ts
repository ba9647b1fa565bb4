import { safeCard } from "../../domain/cards.ts";
import {
  paymentMethodDecider,
  type PaymentMethodCreated,
  type PaymentMethodFailure,
  paymentMethodStreamId,
  type PaymentMethodView,
  toPaymentMethodView,
} from "../../domain/payment-methods/decider.ts";
import { newId } from "../../ids.ts";
import type { CommandContext, CommandResult } from "../context.ts";
import { paymentMethods } from "../streams.ts";
import type { CardVault } from "./card-vault.ts";
import type { Secret } from "../../domain/secret.ts";

export interface VaultContext extends CommandContext {
  cardVault: CardVault;
  fingerprint: (cardNumber: Secret<string>) => string;
}

export interface NewPaymentMethod {
  /** Made with the request's Idempotency-Key claim, so that a retry of a request that died makes the same method. */
  paymentMethodId: string;
  clientId: string;
  userId: string;
  card: { number: Secret<string>; expMonth: number; expYear: number; holderName?: string | undefined };
  metadata: Record<string, string>;
}

type Created = { view: PaymentMethodView; revision: bigint };

/**
 * Stores the card: its data key first (a crash before the event leaves a key that decrypts
 * nothing anywhere), then the event with the ciphertext. `revision`: where its stream stood, which
 * the answer waits for, so a payment that names it right after finds it. Under an id a request
 * already used (a retry of one that died, or that still runs), the card is sealed under the key
 * that request stored, and a method it already created is the answer.
 */
export async function createPaymentMethod(context: VaultContext, input: NewPaymentMethod): Promise<CommandResult<Created, PaymentMethodFailure>> {
  const { paymentMethodId } = input;
  const now = context.now();
  const { number, expMonth, expYear, holderName } = input.card;
  const fingerprint = context.fingerprint(number);
  const sealed = await context.cardVault.seal({ paymentMethodId, dataKeyId: newId() }, { number, holderName }, fingerprint, now);
  const result = await paymentMethods.handle(
    context,
    paymentMethodId,
    {
      type: "CreatePaymentMethod",
      paymentMethodId,
      clientId: input.clientId,
      userId: input.userId,
      card: safeCard(number, expMonth, expYear),
      metadata: input.metadata,
      ...sealed,
      now: now.toISOString(),
    },
  );
  // The answer shows the fingerprint that the event keeps only under the method's key.
  const shown = ({ view, revision }: Created): Created => ({ view: { ...view, card: { ...view.card, fingerprint } }, revision });
  if (result.ok) return { ok: true, value: shown({ view: toPaymentMethodView(result.events[0] as PaymentMethodCreated), revision: result.tip!.revision }) };
  const earlier = await createdBefore(context, input);
  return earlier ? { ok: true, value: shown(earlier) } : result;
}

/** The method this client created under `paymentMethodId` before, as it was created; undefined when none. */
async function createdBefore(context: CommandContext, { paymentMethodId, clientId }: NewPaymentMethod): Promise<Created | undefined> {
  const [first] = await context.store.readStream(paymentMethodStreamId(paymentMethodId), { maxCount: 1 });
  if (!first || !paymentMethodDecider.isEvent(first) || first.type !== "PaymentMethodCreated.v1") return undefined;
  return first.data.clientId === clientId ? { view: toPaymentMethodView(first), revision: first.revision } : undefined;
}

/**
 * Marks the data key deleting, so that no payment reads it any more; waits until the payments
 * that read it before have had their processor calls answered; erases the key; then records the
 * deletion. A crash or a wait that runs out leaves the key deleting (a payment with it fails
 * without sending) and the method not yet deleted: a retry carries on.
 */
export async function deletePaymentMethod(
  context: VaultContext,
  clientId: string,
  paymentMethodId: string,
  processorTimeoutMs: number,
): Promise<CommandResult<{ revision: bigint }, PaymentMethodFailure | "payments_under_way">> {
  const known = await visibleStream(context, paymentMethodId, clientId);
  if (!known) return { ok: false, error: "not_found", detail: "No such payment method." };
  await context.cardVault.markDeleting(paymentMethodId);
  if (!(await context.cardVault.usesEnded(paymentMethodId, processorTimeoutMs))) {
    return { ok: false, error: "payments_under_way", detail: "Payments with this payment method are still being sent; retry the deletion." };
  }
  await context.cardVault.shred(paymentMethodId);
  const command = { type: "DeletePaymentMethod" as const, paymentMethodId, clientId, now: context.now().toISOString() };
  const result = await paymentMethods.handle(context, paymentMethodId, command);
  if (!result.ok) return result;
  return { ok: true, value: { revision: result.tip!.revision } };
}

/** Whether the stream holds a live payment method of the client. */
async function visibleStream(context: CommandContext, paymentMethodId: string, clientId: string): Promise<boolean> {
  const { state } = await paymentMethods.read(context, paymentMethodId);
  return state.status === "active" && state.clientId === clientId;
}
