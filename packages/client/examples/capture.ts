// An authorization captured in part, a capture refused as a typed problem, and the client's history
// read page by page, from TypeScript (strict). It prints what happened as one JSON line.
//
//   npx tsc && LEDGER_URL=http://127.0.0.1:3000 LEDGER_API_KEY=ldgr_sk_… LEDGER_PROCESSOR=processor_a node dist/capture.js
//
// LEDGER_PROCESSOR is the processor your client has a host configuration for (processor_a … processor_d).
import { createLedgerClient, type LedgerClient, type Problem, type ProblemCode, type Transaction } from "@payment-ledger/client";

const { LEDGER_URL, LEDGER_API_KEY, LEDGER_PROCESSOR } = process.env;
const processors = ["processor_a", "processor_b", "processor_c", "processor_d"] as const;
type Processor = (typeof processors)[number];
const isProcessor = (name: string | undefined): name is Processor => processors.some((processor) => processor === name);
if (!LEDGER_URL || !LEDGER_API_KEY || !isProcessor(LEDGER_PROCESSOR)) {
  throw new Error(`Set LEDGER_URL, LEDGER_API_KEY and LEDGER_PROCESSOR (one of ${processors.join(", ")}).`);
}
const processor: Processor = LEDGER_PROCESSOR;
const ledger = createLedgerClient({ baseUrl: LEDGER_URL, apiKey: LEDGER_API_KEY });

/** A problem the caller did not plan for: its code and its detail, for the logs. */
class LedgerError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.code}: ${problem.detail ?? problem.title}`);
  }
}

const authorized = await ledger.POST("/v1/transactions/authorization", {
  params: { header: { "Idempotency-Key": "order-2001-authorization" } },
  body: {
    processor,
    amount: 1000,
    currency: "USD",
    userId: "user_42",
    reference: "order-2001",
    card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" },
  },
});
if (authorized.error) throw new LedgerError(authorized.error);
const authorization: Transaction = authorized.data;

const captured = await ledger.POST("/v1/transactions/capture", {
  params: { header: { "Idempotency-Key": "order-2001-capture-1" } },
  body: { transactionId: authorization.id, amount: 600 },
});
if (captured.error) throw new LedgerError(captured.error);

// More than is left to capture: a 4xx whose code the compiler knows.
const overCaptured = await ledger.POST("/v1/transactions/capture", {
  params: { header: { "Idempotency-Key": "order-2001-capture-2" } },
  body: { transactionId: authorization.id, amount: 5000 },
});
let refusal: { status: number; code: ProblemCode; detail?: string } | undefined;
if (overCaptured.error) {
  const { code, detail } = overCaptured.error;
  switch (code) {
    case "amount_exceeds_capturable":
    case "invalid_transaction_state":
      refusal = { status: overCaptured.response.status, code, detail };
      break;
    default:
      throw new LedgerError(overCaptured.error);
  }
}

/** Every transaction of a user, newest first, following `nextCursor` until it is null. */
async function* history(client: LedgerClient, userId: string): AsyncGenerator<Transaction> {
  let cursor: string | undefined;
  do {
    const page = await client.GET("/v1/transactions", { params: { query: { userId, limit: 2, cursor } } });
    if (page.error) throw new LedgerError(page.error);
    yield* page.data.data;
    cursor = page.data.nextCursor ?? undefined;
  } while (cursor);
}

const transactions: { id: string; type: string; status: string }[] = [];
for await (const { id, type, status } of history(ledger, "user_42")) transactions.push({ id, type, status });

process.stdout.write(`${JSON.stringify({ authorization, capture: captured.data, refusal, history: transactions })}\n`);
