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
import { cardPaymentsEnding } from "../../retry/policies.ts";
import { poll } from "../../retry/retry.ts";
import type { CommandContext, CommandResult } from "../context.ts";
import { paymentMethods } from "../streams.ts";
import type { CardVault } from "./card-vault.ts";
import type { Secret } from "../../domain/secret.ts";

export interface VaultContext extends CommandContext {
  cardVault: CardVault;
  fingerprint: (cardNumber: Secret<string>) => string;
  paymentsWithCard: PaymentsWithCard;
}

/**
 * The payments with a payment method, whose intents (naming the method) are the records of its
 * uses: a lookup across payments, answered by the read side (src/projections) and given at
 * service start.
 */
export interface PaymentsWithCard {
  /** Until every event the log holds when called is in view; `false` when `timeoutMs` ran out first. */
  catchUp(timeoutMs: number): Promise<boolean>;
  /** Whether one of the client's payments with the method, its intent's time after `from` and up to `to`, is pending. */
  anyPendingBetween(query: { clientId: string; paymentMethodId: string; from: Date; to: Date }): Promise<boolean>;
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
 * that may have read it before have had their processor calls answered; erases the key; then
 * records the deletion. A crash or a wait that runs out leaves the key deleting (a payment with it
 * fails without sending) and the method not yet deleted: a retry carries on.
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
  if (!(await paymentsEnded(context, { clientId, paymentMethodId }, processorTimeoutMs))) {
    return { ok: false, error: "payments_under_way", detail: "Payments with this payment method are still being sent; retry the deletion." };
  }
  await context.cardVault.shred(paymentMethodId);
  const command = { type: "DeletePaymentMethod" as const, paymentMethodId, clientId, now: context.now().toISOString() };
  const result = await paymentMethods.handle(context, paymentMethodId, command);
  if (!result.ok) return result;
  return { ok: true, value: { revision: result.tip!.revision } };
}

/** Beyond the longest a processor call can last, what a payment may take besides (its database statements, a busy event loop). */
const PAYMENT_MARGIN_MS = 5_000;

/**
 * Waits, at most one processor timeout and the margin in all, until none of the method's payments
 * that may have read its key is pending: every intent recorded before the key was marked is in
 * view once the read model has caught up with the log (see `StoredCards.use`). A payment's call
 * starts within `processorTimeoutMs` of its intent's time (`sendAndRecord` sends no later) and
 * lasts at most as long, so one pending longer than twice that and the margin was left by a
 * process that died or a call that timed out: its card is no longer being sent. A payment whose
 * intent's time is past the mark (and the margin, for clocks that disagree) read the key after
 * the mark, so it fails unsent: payments that keep coming with the card do not hold the deletion
 * back. The intent's time is the service clock's, so is the one it is compared with.
 */
async function paymentsEnded(
  context: VaultContext,
  method: { clientId: string; paymentMethodId: string },
  processorTimeoutMs: number,
): Promise<boolean> {
  const to = new Date(context.now().getTime() + PAYMENT_MARGIN_MS);
  const withinMs = processorTimeoutMs + PAYMENT_MARGIN_MS;
  const deadline = performance.now() + withinMs;
  if (!(await context.paymentsWithCard.catchUp(withinMs))) return false;
  const noneUnderWay = async () => {
    const from = new Date(context.now().getTime() - (2 * processorTimeoutMs + PAYMENT_MARGIN_MS));
    return !(await context.paymentsWithCard.anyPendingBetween({ ...method, from, to }));
  };
  return (await noneUnderWay()) || poll(cardPaymentsEnding(Math.max(0, deadline - performance.now())), noneUnderWay);
}

/** Whether the stream holds a live payment method of the client. */
async function visibleStream(context: CommandContext, paymentMethodId: string, clientId: string): Promise<boolean> {
  const { state } = await paymentMethods.read(context, paymentMethodId);
  return state.status === "active" && state.clientId === clientId;
}
