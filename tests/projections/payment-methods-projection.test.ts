import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Database } from "../../src/db/schema.ts";
import {
  asEncryptedCard,
  type PaymentMethodCreated,
  type PaymentMethodDeleted,
  paymentMethodStreamId,
  toPaymentMethodView,
} from "../../src/domain/payment-methods/decider.ts";
import { paymentMethodsProjection } from "../../src/projections/payment-methods/payment-methods-projection.ts";
import { openTestDatabase, type TestDatabase, testDatabaseTargets } from "../support/database.ts";
import { eventLog, idSequence, projectionSpec } from "../support/projection-spec.ts";

const clientId = "0190a8e2-0000-7000-8000-0000000000c1";
const dataKeyId = "0190a8e2-0000-7000-8000-0000000000d1";
const createdAt = "2026-01-01T00:00:00.000Z";
const deletedAt = "2026-01-02T00:00:00.000Z";
const card = { brand: "visa" as const, last4: "4242", expMonth: 12, expYear: 2030 };

const created = (paymentMethodId: string): PaymentMethodCreated => ({
  type: "PaymentMethodCreated.v1",
  data: {
    paymentMethodId,
    clientId,
    userId: "user-1",
    card,
    metadata: { plan: "gold" },
    dataKeyId,
    encryptedCard: asEncryptedCard(`v1.${dataKeyId}.card`),
    encryptedFingerprint: `v1.${dataKeyId}.fingerprint`,
    occurredAt: createdAt,
  },
});
/** Stored before the fingerprint moved under the method's data key: its card holds it in plain. */
const createdBeforeFingerprintKeys = (paymentMethodId: string): PaymentMethodCreated => {
  const { encryptedFingerprint: _moved, ...data } = created(paymentMethodId).data;
  return { type: "PaymentMethodCreated.v1", data: { ...data, card: { ...card, fingerprint: "fp-in-plain" } } };
};
const deleted = (paymentMethodId: string): PaymentMethodDeleted => ({
  type: "PaymentMethodDeleted.v1",
  data: { paymentMethodId, clientId, occurredAt: deletedAt },
});

/** The method's row: the API view, and what a payment decrypts the card with. */
function methodRow(paymentMethodId: string) {
  return async (db: Kysely<Database>) => {
    const row = await db.selectFrom("payment_methods").selectAll().where("payment_method_id", "=", paymentMethodId).executeTakeFirst();
    return (
      row && {
        clientId: row.client_id,
        userId: row.user_id,
        view: row.view,
        encryptedCard: row.encrypted_card,
        encryptedFingerprint: row.encrypted_fingerprint,
        dataKeyId: row.data_key_id,
        deletedAt: row.deleted_at?.toISOString() ?? null,
      }
    );
  };
}

const stored = (event: PaymentMethodCreated) => ({
  clientId,
  userId: "user-1",
  view: toPaymentMethodView(event),
  encryptedCard: event.data.encryptedCard,
  encryptedFingerprint: event.data.encryptedFingerprint ?? null,
  dataKeyId,
  deletedAt: null,
});
/** A deleted method keeps its row and view, marked, without ciphertext and without a fingerprint. */
const erased = (event: PaymentMethodCreated) => {
  const { fingerprint: _gone, ...summary } = toPaymentMethodView(event).card;
  return { ...stored(event), view: { ...toPaymentMethodView(event), card: summary }, encryptedCard: null, encryptedFingerprint: null, deletedAt };
};

for (const target of testDatabaseTargets()) {
  describe(`the payment methods read model, on ${target}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(target);
    });
    afterAll(async () => {
      await database.close();
    });

    const { given } = projectionSpec(paymentMethodsProjection, () => database.db);
    const record = eventLog();
    // One database for the file: each test a payment method of its own.
    const newMethodId = idSequence();
    const newMethod = () => {
      const id = newMethodId();
      return { id, events: (...events: (PaymentMethodCreated | PaymentMethodDeleted)[]) => record(paymentMethodStreamId(id), events), read: methodRow(id) };
    };

    it("stores a new method's view and its card's ciphertext under its data key", async () => {
      const method = newMethod();
      await given([]).when(method.events(created(method.id))).then(method.read, stored(created(method.id)));
    });

    it("erases a deleted method's ciphertext and keeps its row, marked", async () => {
      const method = newMethod();
      await given(method.events(created(method.id))).when(method.events(deleted(method.id))).then(method.read, erased(created(method.id)));
    });

    it("drops the plain fingerprint from the view of a method stored before fingerprints had a key, when it is deleted", async () => {
      const method = newMethod();
      const creation = createdBeforeFingerprintKeys(method.id);
      const [recorded] = method.events(creation);
      await given([]).when([recorded!]).then(method.read, stored(creation));
      await given([recorded!]).when(method.events(deleted(method.id))).then(method.read, erased(creation));
    });

    it("never brings a deleted card back: its creation applied again changes nothing", async () => {
      const method = newMethod();
      const [creation, deletion] = method.events(created(method.id), deleted(method.id));
      await given([creation!, deletion!]).when([creation!, deletion!]).then(method.read, erased(created(method.id)));
    });
  });
}
