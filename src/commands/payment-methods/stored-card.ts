import type { SafeCard } from "../../domain/cards.ts";
import type { Secret } from "../../domain/secret.ts";
import type { CardDetails } from "../../processors/port.ts";
import type { CommandResult } from "../context.ts";
import type { VaultedCard } from "./card-vault.ts";

export interface StoredCardRequest {
  paymentMethodId: string;
  clientId: string;
  /** The CVC sent beside the payment method (never stored), added to the decrypted card. */
  cvc?: Secret<string> | undefined;
}

/** A payment method found for a payment: its card's summary, and the card itself once the payment's intent is recorded. */
export interface StoredCard {
  paymentMethodId: string;
  /** The user it was stored for: only their payments may use it. */
  userId: string;
  /** What the payment keeps of the card: no fingerprint (the payment method keeps it, under its own key). */
  summary: SafeCard;
  /**
   * Decrypts the card and gives it to `send`, to be called once the payment's intent (which names
   * the payment method, the record of the use) is recorded: its key is read again, after the
   * intent, and a deletion waits for the payment while it is pending (`StoredCards.use`). A
   * deletion begun before (the key deleting or erased) makes it `not_found`, and `send` is not
   * called.
   */
  sendWith<T>(send: (card: CardDetails) => Promise<T>): Promise<CommandResult<T, "not_found">>;
}

/** What a payment reads of a payment method that is not deleted: whose it is, and its card's summary. */
export interface PaymentMethodOfPayment {
  clientId: string;
  userId: string;
  summary: SafeCard;
}

/** A payment method's card as read for one use: decrypted, in memory only, when opened. */
export interface CardInUse {
  open(): VaultedCard;
}

/**
 * The vaulted cards as payments use them: a port of the commands, given at service start
 * (src/vault). A lookup sees every deletion answered before it was asked.
 */
export interface StoredCards {
  of(paymentMethodId: string): Promise<PaymentMethodOfPayment | undefined>;
  /**
   * The card's key, read to send it by a payment whose intent is recorded, by a statement that
   * starts after it is asked; undefined once its deletion began.
   */
  use(paymentMethodId: string): Promise<CardInUse | undefined>;
}

/**
 * The card of a payment method, for one payment; a deleted method (its key erased), or another
 * client's, is `not_found`. The payment's intent is the record of the card's use: the card is
 * decrypted only after it, from a key read after it (`sendWith`).
 */
export async function storedCardFor(
  context: { storedCards: StoredCards },
  request: StoredCardRequest,
): Promise<CommandResult<StoredCard, "not_found">> {
  const { paymentMethodId, clientId, cvc } = request;
  const notFound = { ok: false, error: "not_found", detail: `No such payment method: ${paymentMethodId}.` } as const;
  const lookup = context.storedCards;
  const method = await lookup.of(paymentMethodId);
  if (!method || method.clientId !== clientId) return notFound;
  const { summary } = method;

  async function sendWith<T>(send: (card: CardDetails) => Promise<T>): Promise<CommandResult<T, "not_found">> {
    const inUse = await lookup.use(paymentMethodId);
    if (!inUse) return notFound;
    const { number, holderName } = inUse.open();
    const card = {
      number,
      expMonth: summary.expMonth,
      expYear: summary.expYear,
      ...(holderName !== undefined && { holderName }),
      ...(cvc !== undefined && { cvc }),
    };
    return { ok: true, value: await send(card) };
  }
  return { ok: true, value: { paymentMethodId, userId: method.userId, summary, sendWith } };
}
