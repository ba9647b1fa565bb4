import { type Kysely, sql } from "kysely";
import type { CardVault, SealedCard, VaultedCard } from "../commands/payment-methods/card-vault.ts";
import { decryptWithDataKey, encryptWithDataKey, newDataKey, type SecretBox } from "../crypto/secrets.ts";
import type { Database } from "../db/schema.ts";
import { asEncryptedCard } from "../domain/payment-methods/decider.ts";
import { Secret } from "../domain/secret.ts";

/**
 * The card vault's keys: one data key per payment method, wrapped by the active master key in
 * `payment_method_keys`, the only place it is kept. The card is encrypted under it; both the
 * wrapping and the ciphertext are bound to the payment method, so neither decrypts elsewhere.
 */

const keyContext = (paymentMethodId: string) => `payment-method/${paymentMethodId}/data-key`;
const cardContext = (paymentMethodId: string) => `payment-method/${paymentMethodId}/card`;
const fingerprintContext = (paymentMethodId: string) => `payment-method/${paymentMethodId}/fingerprint`;

/** The vault over the service's database and master keys: the commands' `CardVault`. */
export function createCardVault(db: Kysely<Database>, secrets: SecretBox): CardVault {
  return {
    seal: (ids, card, fingerprint, now) => sealCard(db, secrets, ids, card, fingerprint, now),
    markDeleting: (paymentMethodId) => markDeleting(db, paymentMethodId),
    shred: (paymentMethodId) => shredCard(db, paymentMethodId),
  };
}

/**
 * Encrypts the card under the payment method's data key and stores that key, wrapped, before any
 * event names it. The key is made here, unless a request for the same method made it before (one
 * that died between this and its append, or still runs): then the card is sealed under that one,
 * so the method has one key whichever request's event lands.
 */
export async function sealCard(
  db: Kysely<Database>,
  secrets: SecretBox,
  ids: { paymentMethodId: string; dataKeyId: string },
  card: VaultedCard,
  fingerprint: string,
  now: Date,
): Promise<SealedCard> {
  const context = keyContext(ids.paymentMethodId);
  const newKey = newDataKey();
  const stored = await db
    .insertInto("payment_method_keys")
    .values({
      data_key_id: ids.dataKeyId,
      payment_method_id: ids.paymentMethodId,
      master_key_id: secrets.activeKeyId,
      wrapped_key: secrets.wrapKey(newKey, context),
      created_at: now,
    })
    // A no-op update, so that the row already there is returned.
    .onConflict((conflict) => conflict.column("payment_method_id").doUpdateSet((update) => ({ payment_method_id: update.ref("excluded.payment_method_id") })))
    .returning(["data_key_id", "wrapped_key"])
    .executeTakeFirstOrThrow();
  const dataKey = stored.data_key_id === ids.dataKeyId ? newKey : secrets.unwrapKey(stored.wrapped_key, context);
  try {
    // Exposed into the plaintext that is encrypted at once, under the method's own key.
    const number = card.number.expose();
    const plaintext = JSON.stringify({ number, ...(card.holderName !== undefined && { holderName: card.holderName }) });
    return {
      dataKeyId: stored.data_key_id,
      encryptedCard: asEncryptedCard(encryptWithDataKey(dataKey, plaintext, cardContext(ids.paymentMethodId))),
      encryptedFingerprint: encryptWithDataKey(dataKey, fingerprint, fingerprintContext(ids.paymentMethodId)),
    };
  } finally {
    newKey.fill(0);
    dataKey.fill(0);
  }
}

/** The card, decrypted in memory only, its number a secret from the moment it is read. */
export function openCard(secrets: SecretBox, paymentMethodId: string, wrappedKey: string, encryptedCard: string): VaultedCard {
  const { number, holderName } = JSON.parse(openWithDataKey(secrets, paymentMethodId, wrappedKey, encryptedCard, cardContext(paymentMethodId))) as {
    number: string;
    holderName?: string;
  };
  return { number: new Secret(number), ...(holderName !== undefined && { holderName }) };
}

/** The card's fingerprint, decrypted to be shown: the number stays sealed. */
export function openFingerprint(secrets: SecretBox, paymentMethodId: string, wrappedKey: string, encryptedFingerprint: string): string {
  return openWithDataKey(secrets, paymentMethodId, wrappedKey, encryptedFingerprint, fingerprintContext(paymentMethodId));
}

/** A ciphertext under the payment method's data key, which is unwrapped for it alone and wiped after. */
function openWithDataKey(secrets: SecretBox, paymentMethodId: string, wrappedKey: string, ciphertext: string, context: string): string {
  const dataKey = secrets.unwrapKey(wrappedKey, keyContext(paymentMethodId));
  try {
    return decryptWithDataKey(dataKey, ciphertext, context);
  } finally {
    dataKey.fill(0);
  }
}

/** Erases the payment method's data key: from here on its card can be decrypted by no one. */
async function shredCard(db: Kysely<Database>, paymentMethodId: string): Promise<void> {
  await db.deleteFrom("payment_method_keys").where("payment_method_id", "=", paymentMethodId).execute();
}

/** From now on no payment reads the method's key (`StoredCards.use`). */
async function markDeleting(db: Kysely<Database>, paymentMethodId: string): Promise<void> {
  await db
    .updateTable("payment_method_keys")
    .set({ deleting_since: sql<Date>`now()` })
    .where("payment_method_id", "=", paymentMethodId)
    .where("deleting_since", "is", null)
    .execute();
}

/**
 * Wraps again, under the active master key, every data key wrapped by another one, a page at a
 * time; the events (which hold only ciphertexts under the data keys) are left as they are. Each
 * row is rewritten only if it still holds what was read, so a deletion racing the rotation wins.
 * Returns how many keys it rewrapped.
 */
export async function rewrapDataKeys(
  db: Kysely<Database>,
  secrets: SecretBox,
  now: () => Date,
  pageSize = 500,
): Promise<number> {
  let rewrapped = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const rows = await db
      .selectFrom("payment_method_keys")
      .select(["data_key_id", "payment_method_id", "wrapped_key"])
      .where("master_key_id", "<>", secrets.activeKeyId)
      .where("data_key_id", ">", after)
      .orderBy("data_key_id")
      .limit(pageSize)
      .execute();
    if (rows.length === 0) return rewrapped;
    for (const row of rows) {
      const context = keyContext(row.payment_method_id);
      const dataKey = secrets.unwrapKey(row.wrapped_key, context);
      const wrapped = secrets.wrapKey(dataKey, context);
      dataKey.fill(0);
      const updated = await db
        .updateTable("payment_method_keys")
        .set({ wrapped_key: wrapped, master_key_id: secrets.activeKeyId, rewrapped_at: now() })
        .where("data_key_id", "=", row.data_key_id)
        .where("wrapped_key", "=", row.wrapped_key)
        .executeTakeFirst();
      rewrapped += Number(updated.numUpdatedRows);
    }
    after = rows.at(-1)!.data_key_id;
  }
}
