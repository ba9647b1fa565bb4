import type { Kysely } from "kysely";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";
import { cardSummaryOf, type SafeCard } from "../../domain/cards.ts";
import type { PaymentMethodView } from "../../domain/payment-methods/decider.ts";
import type { Secret } from "../../domain/secret.ts";
import type { CardDetails } from "../../processors/port.ts";
import type { CommandResult } from "../context.ts";
import type { VaultContext } from "./payment-methods.ts";
import { openCard } from "./vault.ts";

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
   * Decrypts the card, to be called once the payment's intent (which names the payment method,
   * the record of the use) is recorded: its key is read again, so a deletion answered before
   * is seen, and the card is `not_found`.
   */
  open(): Promise<CommandResult<CardDetails, "not_found">>;
}

/** What a payment reads of a payment method that is not deleted: whose it is, its card's summary, its ciphertext and wrapped data key. */
interface VaultedPaymentMethod {
  clientId: string;
  userId: string;
  summary: SafeCard;
  encryptedCard: string;
  wrappedKey: string;
}

/**
 * Payment methods with their wrapped data keys, as payments look them up: the lookups that arrive
 * while one is in flight are made together, in one statement. A lookup is only ever answered by a
 * statement that started after it was asked, so it sees every deletion answered before; nothing
 * read is kept once its lookup is answered.
 */
export class PaymentMethodLookup {
  readonly #lookup: (paymentMethodId: string) => Promise<VaultedPaymentMethod | undefined>;

  constructor(db: Kysely<Database>) {
    this.#lookup = batchWhileBusy(async (paymentMethodIds: string[]) => {
      const rows = await db
        .selectFrom("payment_methods")
        .innerJoin("payment_method_keys", "payment_method_keys.payment_method_id", "payment_methods.payment_method_id")
        .select([
          "payment_methods.payment_method_id",
          "payment_methods.client_id",
          "payment_methods.user_id",
          "payment_methods.view",
          "payment_methods.encrypted_card",
          "payment_method_keys.wrapped_key",
        ])
        .where("payment_methods.payment_method_id", "in", [...new Set(paymentMethodIds)])
        .where("payment_methods.deleted_at", "is", null)
        .where("payment_methods.encrypted_card", "is not", null)
        .execute();
      const found = new Map(
        rows.map((row) => [
          row.payment_method_id,
          {
            clientId: row.client_id,
            userId: row.user_id,
            summary: cardSummaryOf((row.view as PaymentMethodView).card, { paidWithMethod: true }),
            encryptedCard: row.encrypted_card!,
            wrappedKey: row.wrapped_key,
          },
        ]),
      );
      return paymentMethodIds.map((paymentMethodId) => found.get(paymentMethodId));
    });
  }

  of(paymentMethodId: string): Promise<VaultedPaymentMethod | undefined> {
    return this.#lookup(paymentMethodId);
  }
}

/**
 * The card of a payment method, for one payment; a deleted method (its key erased), or another
 * client's, is `not_found`. The payment's intent is the record of the card's use: the card is
 * decrypted only after it, from a key read after it (`open`).
 */
export async function storedCardFor(context: VaultContext, request: StoredCardRequest): Promise<CommandResult<StoredCard, "not_found">> {
  const { paymentMethodId, clientId, cvc } = request;
  const notFound = { ok: false, error: "not_found", detail: `No such payment method: ${paymentMethodId}.` } as const;
  const method = await context.registries.paymentMethods.of(paymentMethodId);
  if (!method || method.clientId !== clientId) return notFound;
  const { summary } = method;

  async function open(): Promise<CommandResult<CardDetails, "not_found">> {
    const current = await context.registries.paymentMethods.of(paymentMethodId);
    if (!current) return notFound;
    const { number, holderName } = openCard(context.secrets, paymentMethodId, current.wrappedKey, current.encryptedCard);
    const card = {
      number,
      expMonth: summary.expMonth,
      expYear: summary.expYear,
      ...(holderName !== undefined && { holderName }),
      ...(cvc !== undefined && { cvc }),
    };
    return { ok: true, value: card };
  }
  return { ok: true, value: { paymentMethodId, userId: method.userId, summary, open } };
}
