import type { Kysely } from "kysely";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";
import { cardSummaryOf, type SafeCard } from "../../domain/cards.ts";
import { paymentMethodDecider, paymentMethodStreamId, type PaymentMethodView } from "../../domain/payment-methods/decider.ts";
import type { Secret } from "../../domain/secret.ts";
import type { CardDetails } from "../../processors/port.ts";
import type { StreamAppend } from "../../eventstore/port.ts";
import type { CommandResult } from "../context.ts";
import type { VaultContext } from "./payment-methods.ts";
import { openCard } from "./vault.ts";

export interface StoredCardRequest {
  paymentMethodId: string;
  clientId: string;
  /** The transaction the card is decrypted for. */
  transactionId: string;
  /** The CVC sent beside the payment method (never stored), added to the decrypted card. */
  cvc?: Secret<string> | undefined;
}

/** A payment method found for a payment: its card's summary, and the card itself once the use is recorded. */
export interface StoredCard {
  paymentMethodId: string;
  /** The user it was stored for: only their payments may use it. */
  userId: string;
  /** What the payment keeps of the card: no fingerprint (the payment method keeps it, under its own key). */
  summary: SafeCard;
  /**
   * Records the use, in the same write as the payment's first append, then decrypts the card;
   * `not_found` (and the payment not recorded) if it was deleted meanwhile.
   */
  recordUse(payment: StreamAppend): Promise<CommandResult<CardDetails, "not_found">>;
}

/** What a payment reads of a payment method that is not deleted: whose it is, its card's summary, its ciphertext and wrapped data key. */
interface VaultedPaymentMethod {
  clientId: string;
  userId: string;
  summary: SafeCard;
  encryptedCard: string;
  dataKeyId: string;
  masterKeyId: string;
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
          "payment_method_keys.data_key_id",
          "payment_method_keys.master_key_id",
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
            dataKeyId: row.data_key_id,
            masterKeyId: row.master_key_id,
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
 * The card of a payment method, for one payment. Its use is recorded in the payment method's
 * stream before its key is unwrapped, so no decryption goes unaudited; a deleted method (its key
 * erased), or another client's, is `not_found`.
 *
 * The use and the payment's first append are one write, the use first: on PostgreSQL one
 * transaction, on EventStoreDB (no multi-stream append) the use durable before the payment is
 * sent. So a payment never exists without its use; a use without its payment (the payment's
 * append failed after it) is harmless, and visible in the payment method's stream. The card is
 * decrypted only once both have landed, before any processor call.
 */
export async function storedCardFor(context: VaultContext, request: StoredCardRequest): Promise<CommandResult<StoredCard, "not_found">> {
  const { paymentMethodId, clientId, transactionId, cvc } = request;
  const notFound = { ok: false, error: "not_found", detail: `No such payment method: ${paymentMethodId}.` } as const;
  const method = await context.registries.paymentMethods.of(paymentMethodId);
  if (!method || method.clientId !== clientId) return notFound;
  const { summary } = method;

  async function recordUse(payment: StreamAppend): Promise<CommandResult<CardDetails, "not_found">> {
    const used = await context.registries.groupCommits.execute(
      paymentMethodDecider,
      paymentMethodStreamId(paymentMethodId),
      {
        type: "RecordPaymentMethodUse",
        paymentMethodId,
        clientId,
        transactionId,
        dataKeyId: method!.dataKeyId,
        masterKeyId: method!.masterKeyId,
        now: context.now().toISOString(),
      },
      context.metadata,
      // A card is used again and again: its stream's tip is kept, not read before every use.
      { lastEventOnly: true, remember: true, alongside: payment },
    );
    if (!used.ok) return notFound;
    const { number, holderName } = openCard(context.secrets, paymentMethodId, method!.wrappedKey, method!.encryptedCard);
    const card = {
      number,
      expMonth: summary.expMonth,
      expYear: summary.expYear,
      ...(holderName !== undefined && { holderName }),
      ...(cvc !== undefined && { cvc }),
    };
    return { ok: true, value: card };
  }
  return { ok: true, value: { paymentMethodId, userId: method.userId, summary, recordUse } };
}
