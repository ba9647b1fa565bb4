import { type Kysely, sql } from "kysely";
import { batchWhileBusy } from "../../batching/batch-while-busy.ts";
import type { Database } from "../../db/schema.ts";
import { cardSummaryOf, type SafeCard } from "../../domain/cards.ts";
import type { Secret } from "../../domain/secret.ts";
import type { Logger } from "../../logger.ts";
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
   * Decrypts the card and gives it to `send`, to be called once the payment's intent (which names
   * the payment method, the record of the use) is recorded. Its key is read again, and the use
   * registered by the same statement, until `send` returns: a deletion waits for it before it
   * erases the key. A deletion begun before (the key deleting or erased) makes it `not_found`,
   * and `send` is not called.
   */
  sendWith<T>(transactionId: string, send: (card: CardDetails) => Promise<T>): Promise<CommandResult<T, "not_found">>;
}

/** What a payment reads of a payment method that is not deleted: whose it is, its card's summary, its ciphertext and wrapped data key. */
interface VaultedPaymentMethod {
  clientId: string;
  userId: string;
  summary: SafeCard;
  encryptedCard: string;
  wrappedKey: string;
}

/** What a payment reads of a payment method's card to send it. */
interface CardKey {
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
  readonly #use: (use: { paymentMethodId: string; transactionId: string }) => Promise<CardKey | undefined>;
  readonly #release: (transactionId: string) => Promise<void>;

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
            summary: cardSummaryOf(row.view.card, { paidWithMethod: true }),
            encryptedCard: row.encrypted_card!,
            wrappedKey: row.wrapped_key,
          },
        ]),
      );
      return paymentMethodIds.map((paymentMethodId) => found.get(paymentMethodId));
    });
    // FOR SHARE: a deletion's mark (an update of the key row) waits for this statement, uses
    // registered, to commit, or this statement waits for the mark and then skips the row. So a
    // deletion that marked the key sees every use of it registered before.
    this.#use = batchWhileBusy(async (uses: { paymentMethodId: string; transactionId: string }[]) => {
      const asked = sql.join(uses.map(({ paymentMethodId, transactionId }) => sql`(${paymentMethodId}::uuid, ${transactionId}::uuid)`));
      const { rows } = await sql<{ payment_method_id: string; encrypted_card: string; wrapped_key: string }>`
        with asked (payment_method_id, transaction_id) as (values ${asked}),
        found as (
          select payment_method_keys.payment_method_id, payment_methods.encrypted_card, payment_method_keys.wrapped_key
          from payment_method_keys
          join payment_methods on payment_methods.payment_method_id = payment_method_keys.payment_method_id
          where payment_method_keys.payment_method_id in (select payment_method_id from asked)
            and payment_method_keys.deleting_since is null
            and payment_methods.deleted_at is null
            and payment_methods.encrypted_card is not null
          for share of payment_method_keys
        ),
        registered as (
          insert into payment_method_uses (transaction_id, payment_method_id, started_at)
          select asked.transaction_id, asked.payment_method_id, now() from asked join found on found.payment_method_id = asked.payment_method_id
        )
        select payment_method_id, encrypted_card, wrapped_key from found`.execute(db);
      const found = new Map(rows.map((row) => [row.payment_method_id, { encryptedCard: row.encrypted_card, wrappedKey: row.wrapped_key }]));
      return uses.map(({ paymentMethodId }) => found.get(paymentMethodId));
    });
    this.#release = batchWhileBusy(async (transactionIds: string[]) => {
      await db.deleteFrom("payment_method_uses").where("transaction_id", "in", transactionIds).execute();
      return transactionIds.map(() => undefined);
    });
  }

  of(paymentMethodId: string): Promise<VaultedPaymentMethod | undefined> {
    return this.#lookup(paymentMethodId);
  }

  /** The card's key for `transactionId` to send it, its use registered; undefined once its deletion began. */
  use(paymentMethodId: string, transactionId: string): Promise<CardKey | undefined> {
    return this.#use({ paymentMethodId, transactionId });
  }

  /** Ends the use `transactionId` registered: its processor call has returned. */
  release(transactionId: string): Promise<void> {
    return this.#release(transactionId);
  }
}

/**
 * The card of a payment method, for one payment; a deleted method (its key erased), or another
 * client's, is `not_found`. The payment's intent is the record of the card's use: the card is
 * decrypted only after it, from a key read after it (`sendWith`).
 */
export async function storedCardFor(
  context: VaultContext & { logger: Pick<Logger, "error"> },
  request: StoredCardRequest,
): Promise<CommandResult<StoredCard, "not_found">> {
  const { paymentMethodId, clientId, cvc } = request;
  const notFound = { ok: false, error: "not_found", detail: `No such payment method: ${paymentMethodId}.` } as const;
  const lookup = context.registries.paymentMethods;
  const method = await lookup.of(paymentMethodId);
  if (!method || method.clientId !== clientId) return notFound;
  const { summary } = method;

  async function sendWith<T>(transactionId: string, send: (card: CardDetails) => Promise<T>): Promise<CommandResult<T, "not_found">> {
    const key = await lookup.use(paymentMethodId, transactionId);
    if (!key) return notFound;
    try {
      const { number, holderName } = openCard(context.secrets, paymentMethodId, key.wrappedKey, key.encryptedCard);
      const card = {
        number,
        expMonth: summary.expMonth,
        expYear: summary.expYear,
        ...(holderName !== undefined && { holderName }),
        ...(cvc !== undefined && { cvc }),
      };
      return { ok: true, value: await send(card) };
    } finally {
      // The payment is sent and recorded: a use left behind only holds a deletion back until it is old enough to be taken for a dead process's.
      await lookup.release(transactionId).catch((error: unknown) =>
        context.logger.error({ err: error, paymentMethodId, transactionId }, "removing a payment method's use failed"),
      );
    }
  }
  return { ok: true, value: { paymentMethodId, userId: method.userId, summary, sendWith } };
}
