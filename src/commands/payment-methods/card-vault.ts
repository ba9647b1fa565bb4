import type { EncryptedCard } from "../../domain/payment-methods/decider.ts";
import type { Secret } from "../../domain/secret.ts";

/** What the vault keeps of a card: the number and the holder's name, never the CVC. */
export interface VaultedCard {
  number: Secret<string>;
  holderName?: string | undefined;
}

/** A card sealed under its payment method's data key: what the method's event holds of it. */
export interface SealedCard {
  dataKeyId: string;
  encryptedCard: EncryptedCard;
  encryptedFingerprint: string;
}

/**
 * The card vault: one data key per payment method, kept wrapped apart from the event log, so
 * that erasing it erases the card from every copy (crypto-shredding). A port of the commands:
 * the service gives it at start (src/vault).
 */
export interface CardVault {
  /**
   * Encrypts the card under the payment method's data key and stores that key, wrapped, before
   * any event names it. A request for the same method that stored a key before (one that died
   * between this and its append, or still runs) leaves that key, and the card is sealed under it.
   */
  seal(ids: { paymentMethodId: string; dataKeyId: string }, card: VaultedCard, fingerprint: string, now: Date): Promise<SealedCard>;
  /** From now on no payment reads the method's key (`StoredCards.use`). */
  markDeleting(paymentMethodId: string): Promise<void>;
  /** Erases the payment method's data key: from here on its card can be decrypted by no one. */
  shred(paymentMethodId: string): Promise<void>;
}
