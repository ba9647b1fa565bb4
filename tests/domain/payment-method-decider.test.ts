import { describe, it } from "vitest";
import {
  asEncryptedCard,
  type CreatePaymentMethod,
  type DeletePaymentMethod,
  paymentMethodDecider,
  type PaymentMethodEvent,
} from "../../src/domain/payment-methods/decider.ts";
import { deciderSpec } from "../support/decider-spec.ts";

const paymentMethodId = "0190a8e2-0000-7000-8000-0000000000e1";
const clientId = "0190a8e2-0000-7000-8000-0000000000c1";
const otherClientId = "0190a8e2-0000-7000-8000-0000000000c2";
const createdAt = "2026-01-01T00:00:00.000Z";
const deletedAt = "2026-01-02T00:00:00.000Z";

const card = { brand: "visa" as const, last4: "4242", expMonth: 12, expYear: 2030 };
const stored = {
  paymentMethodId,
  clientId,
  userId: "user-1",
  card,
  metadata: { plan: "gold" },
  dataKeyId: "0190a8e2-0000-7000-8000-0000000000d1",
  encryptedCard: asEncryptedCard("v1.key.ciphertext"),
  encryptedFingerprint: "v1.key.fingerprint",
};

const create: CreatePaymentMethod = { type: "CreatePaymentMethod", ...stored, now: createdAt };
const created: PaymentMethodEvent = { type: "PaymentMethodCreated.v1", data: { ...stored, occurredAt: createdAt } };
/** Recorded by earlier versions at each use of the card. */
const used: PaymentMethodEvent = {
  type: "PaymentMethodUsed.v1",
  data: { paymentMethodId, clientId, transactionId: "0190a8e2-0000-7000-8000-000000000001", dataKeyId: stored.dataKeyId, masterKeyId: "mk-1", occurredAt: createdAt },
};
const remove = (by = clientId): DeletePaymentMethod => ({ type: "DeletePaymentMethod", paymentMethodId, clientId: by, now: deletedAt });
const deleted: PaymentMethodEvent = { type: "PaymentMethodDeleted.v1", data: { paymentMethodId, clientId, occurredAt: deletedAt } };

const { given } = deciderSpec(paymentMethodDecider);

describe("the payment method decider", () => {
  it("stores a new card as created, its number only as ciphertext under its data key", () => {
    given([]).when(create).then([created]);
  });

  it("refuses to store a card under an id taken, even by a deleted method: a retry stores no second card", () => {
    given([created]).when(create).thenRefused("already_exists");
    given([created, deleted]).when(create).thenRefused("already_exists");
  });

  it("deletes its client's method, also one used before uses were recorded on the payment", () => {
    given([created]).when(remove()).then([deleted]);
    given([created, used]).when(remove()).then([deleted]);
  });

  it("knows no method that is absent, deleted or another client's", () => {
    given([]).when(remove()).thenRefused("not_found");
    given([created, deleted]).when(remove()).thenRefused("not_found");
    given([created]).when(remove(otherClientId)).thenRefused("not_found");
  });
});
