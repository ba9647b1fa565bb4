import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The vault's data keys, each wrapped by a master key. Not a projection: written by the
  // commands, never by the log, and never rebuilt. Deleting a row is what makes its payment
  // method's number unrecoverable, so nothing else may hold a copy of `wrapped_key`.
  await sql`
    create table payment_method_keys (
      data_key_id uuid primary key,
      payment_method_id uuid not null unique,
      master_key_id text not null,
      wrapped_key text not null,
      created_at timestamptz not null,
      rewrapped_at timestamptz
    )`.execute(db);
  // The master key rotation's look: the keys still wrapped by a retiring master key.
  await sql`create index payment_method_keys_master_key on payment_method_keys (master_key_id)`.execute(db);

  // The payment-methods projection: the API view and the card's ciphertext (useless without its key).
  await sql`
    create table payment_methods (
      payment_method_id uuid primary key,
      client_id uuid not null,
      user_id text not null,
      view json not null,
      encrypted_card text,
      data_key_id uuid not null,
      created_at timestamptz not null,
      deleted_at timestamptz
    )`.execute(db);
  await sql`
    create index payment_methods_client_user
      on payment_methods (client_id, user_id, payment_method_id desc) where deleted_at is null`.execute(db);
  await sql`
    create index payment_methods_client on payment_methods (client_id, payment_method_id desc) where deleted_at is null`.execute(db);

  // Every transaction object now has `paymentMethodId`; those projected before had none.
  await sql`update transactions set view = (view::jsonb || '{"paymentMethodId": null}'::jsonb)::json`.execute(db);

  // History by payment method: from the view the transactions projection already writes, so the
  // projection's statement needs no column of its own.
  await sql`
    create index transactions_client_payment_method_created
      on transactions (client_id, (view->>'paymentMethodId'), created_at desc, transaction_id desc)
      where (view->>'paymentMethodId') is not null`.execute(db);
}
