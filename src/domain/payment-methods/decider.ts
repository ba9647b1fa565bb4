import { cardSummaryOf, type SafeCard } from "../cards.ts";
import { accept, type Decider, eventGuard, reject } from "../decider.ts";

/**
 * A stored card (the vault). Its number is never in an event: `PaymentMethodCreated` carries it
 * encrypted under a data key of its own, and that key, wrapped by a master key, lives only in the
 * `payment_method_keys` table, so deleting the key row erases the number from every copy of the
 * log (crypto-shredding). A payment's intent, which names the payment method, records its use
 * before the card is decrypted; earlier versions recorded each use as `PaymentMethodUsed`.
 */

export const paymentMethodStreamId = (paymentMethodId: string) => `payment-method-${paymentMethodId}`;

/** Ciphertext of the card's number and holder name, under the payment method's data key. */
export type EncryptedCard = string & { readonly __brand: "EncryptedCard" };
export const asEncryptedCard = (ciphertext: string): EncryptedCard => ciphertext as EncryptedCard;

// --- events ----------------------------------------------------------------------------------

// Every event names its client, so a decision needs only the stream's last event.
export type PaymentMethodCreated = {
  type: "PaymentMethodCreated.v1";
  data: {
    paymentMethodId: string;
    clientId: string;
    userId: string;
    card: SafeCard;
    metadata: Record<string, string>;
    /** The data key `encryptedCard` is encrypted under (its wrapped form is in `payment_method_keys`). */
    dataKeyId: string;
    encryptedCard: EncryptedCard;
    /**
     * The card's fingerprint under the same data key, so it goes with it (absent before
     * 2026-12-04, when `card` held it in plain).
     */
    encryptedFingerprint?: string;
    occurredAt: string;
  };
};

/**
 * The number was decrypted to send `transactionId` to its processor, with this data key, unwrapped
 * by this master key. No longer recorded: the payment's intent is the record of the use.
 */
export type PaymentMethodUsed = {
  type: "PaymentMethodUsed.v1";
  data: { paymentMethodId: string; clientId: string; transactionId: string; dataKeyId: string; masterKeyId: string; occurredAt: string };
};

/** Its data key was erased before this was recorded: the number can no longer be decrypted. */
export type PaymentMethodDeleted = {
  type: "PaymentMethodDeleted.v1";
  data: { paymentMethodId: string; clientId: string; occurredAt: string };
};

export type PaymentMethodEvent = PaymentMethodCreated | PaymentMethodUsed | PaymentMethodDeleted;

export const paymentMethodEventTypes = [
  "PaymentMethodCreated.v1",
  "PaymentMethodUsed.v1",
  "PaymentMethodDeleted.v1",
] as const satisfies readonly PaymentMethodEvent["type"][];

/** An event read from the log is one of ours by its type (stored events are never rewritten). */
export const isPaymentMethodEvent = (event: { type: string; data: unknown }): event is PaymentMethodEvent =>
  (paymentMethodEventTypes as readonly string[]).includes(event.type);

// --- commands --------------------------------------------------------------------------------

export type CreatePaymentMethod = { type: "CreatePaymentMethod"; now: string } & Omit<PaymentMethodCreated["data"], "occurredAt">;

export type DeletePaymentMethod = { type: "DeletePaymentMethod"; paymentMethodId: string; clientId: string; now: string };

export type PaymentMethodCommand = CreatePaymentMethod | DeletePaymentMethod;

/** `not_found`: none, deleted, or another client's. */
export type PaymentMethodFailure = "already_exists" | "not_found";

// --- state -----------------------------------------------------------------------------------

export type PaymentMethodState =
  | { status: "absent" }
  | { status: "active" | "deleted"; paymentMethodId: string; clientId: string };

export const initialState = (): PaymentMethodState => ({ status: "absent" });

export function evolve(_state: PaymentMethodState, event: PaymentMethodEvent): PaymentMethodState {
  const { paymentMethodId, clientId } = event.data;
  switch (event.type) {
    case "PaymentMethodCreated.v1":
    case "PaymentMethodUsed.v1":
      return { status: "active", paymentMethodId, clientId };
    case "PaymentMethodDeleted.v1":
      return { status: "deleted", paymentMethodId, clientId };
  }
}

export function decide(command: PaymentMethodCommand, state: PaymentMethodState): ReturnType<PaymentMethodDecider["decide"]> {
  if (command.type === "CreatePaymentMethod") {
    if (state.status !== "absent") return reject("already_exists", "The payment method already exists.");
    const { type: _type, now, ...data } = command;
    return accept<PaymentMethodEvent>({ type: "PaymentMethodCreated.v1", data: { ...data, occurredAt: now } });
  }
  if (state.status !== "active" || state.clientId !== command.clientId) {
    return reject("not_found", "No such payment method.");
  }
  return accept<PaymentMethodEvent>({
    type: "PaymentMethodDeleted.v1",
    data: { paymentMethodId: command.paymentMethodId, clientId: command.clientId, occurredAt: command.now },
  });
}

type PaymentMethodDecider = Decider<PaymentMethodState, PaymentMethodCommand, PaymentMethodEvent, PaymentMethodFailure>;

export const paymentMethodDecider: PaymentMethodDecider = {
  initialState,
  evolve,
  decide,
  isEvent: eventGuard<PaymentMethodEvent>(paymentMethodEventTypes),
};

// --- read side -------------------------------------------------------------------------------

/** The API's payment method object: never the number, never its ciphertext. */
export type PaymentMethodView = {
  id: string;
  type: "card";
  clientId: string;
  card: SafeCard;
  userId: string;
  metadata: Record<string, string>;
  createdAt: string;
};

export const toPaymentMethodView = ({ data }: PaymentMethodCreated): PaymentMethodView => ({
  id: data.paymentMethodId,
  type: "card",
  clientId: data.clientId,
  card: cardSummaryOf(data.card, { paidWithMethod: false }),
  userId: data.userId,
  metadata: { ...data.metadata },
  createdAt: data.occurredAt,
});
