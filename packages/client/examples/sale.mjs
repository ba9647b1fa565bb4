// A sale from plain Node (ESM): the sale, its retry with the same Idempotency-Key, a decline and an
// invalid request, each read as a merchant's code would. It prints what happened as one JSON line.
//
//   LEDGER_URL=http://127.0.0.1:3000 LEDGER_API_KEY=ldgr_sk_… LEDGER_PROCESSOR=processor_a node sale.mjs
//
// LEDGER_PROCESSOR is the processor your client has a host configuration for (processor_a … processor_d).
import { createLedgerClient } from "@payment-ledger/client";

const { LEDGER_URL, LEDGER_API_KEY, LEDGER_PROCESSOR } = process.env;
if (!LEDGER_URL || !LEDGER_API_KEY || !LEDGER_PROCESSOR) throw new Error("Set LEDGER_URL, LEDGER_API_KEY and LEDGER_PROCESSOR.");
const ledger = createLedgerClient({ baseUrl: LEDGER_URL, apiKey: LEDGER_API_KEY });

const card = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };
const order = { processor: LEDGER_PROCESSOR, amount: 2500, currency: "USD", userId: "user_42", reference: "order-1001", card };
// One key per order: a retry after a timeout or a crash answers the first answer, and charges nothing twice.
const idempotency = { header: { "Idempotency-Key": "order-1001" } };

const sale = await ledger.POST("/v1/transactions/sale", { params: idempotency, body: order });
const retry = await ledger.POST("/v1/transactions/sale", { params: idempotency, body: order });

// Errors are application/problem+json: branch on `code`; a decline carries the recorded transaction.
const declined = await ledger.POST("/v1/transactions/sale", {
  params: { header: { "Idempotency-Key": "order-1002" } },
  body: { ...order, reference: "order-1002", card: { ...card, number: "4000000000000002" } },
});
const invalid = await ledger.POST("/v1/transactions/sale", { body: { ...order, amount: -1 } });

const outcome = ({ response, data, error }) => ({
  status: response.status,
  replayed: response.headers.get("idempotent-replayed"),
  transaction: data,
  problem: error,
});
process.stdout.write(`${JSON.stringify({ sale: outcome(sale), retry: outcome(retry), declined: outcome(declined), invalid: outcome(invalid) })}\n`);
