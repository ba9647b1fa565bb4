import type { OpenAPIV3_1 } from "openapi-types";

/** The reference's own introduction: everything a reader of /docs needs, with nothing to look up elsewhere. */
export const apiDescription = `
An event-sourced payment ledger. It runs card transactions (authorization, capture, sale, refund, void) against four card
processors (\`processor_a\` … \`processor_d\`), keeps every fact as an immutable, hash-chained event, and answers status,
history, settlement and audit questions from those events.

## Conventions

- Every operation is under \`/v1\`. JSON in and out, UTF-8; unknown request fields are refused (400), so typos never pass silently.
- Amounts are integers in the currency's minor unit (\`1099\` USD is $10.99; \`500\` JPY is ¥500). Currencies are ISO 4217
  alphabetic codes.
- Ids are UUIDs (time-ordered UUIDv7). Timestamps are ISO 8601 UTC. Date filters also take a date alone (\`2025-06-12\`),
  which means that whole UTC day.
- Every answer carries \`x-request-id\`: the request's own \`x-request-id\` when it sent one (1 to 128 printable
  characters), else a new id. Problems repeat it as \`requestId\`.
- Every answer carries \`server-timing: processor;dur=<ms>, app;dur=<ms>\`: the time the request waited on processor calls,
  and the rest of its time in the service.

## Authentication

Send \`Authorization: Bearer <api key>\` on every \`/v1\` call. There are two kinds of key:

- **The admin key** belongs to the platform operator (set with \`ADMIN_API_KEY\` at start, or generated and printed once at
  first start). It manages clients, their API keys, limits and host configurations, closes settlement batches and reads
  everything. It does not make transactions.
- **Client keys** are created by the admin (\`POST /v1/clients/{clientId}/api-keys\`) and shown once; only a hash is kept.
  A client key makes and reads its own client's transactions, reads its host configurations, settlements and webhook
  endpoints, and manages its webhook endpoints. A revoked key stops working at once.

A missing, unknown or revoked key answers 401 \`invalid_credentials\`; a key used outside its role, 403 \`forbidden\`.
Another client's resource is always 404 \`not_found\`, never 403: existence does not leak. Each operation says who may call it.

## Idempotency

Every POST takes an \`Idempotency-Key\` header (1 to 255 printable characters), scoped to the calling key's client. Retry
with the same key and the same request and you get the first answer again, status and body, with
\`idempotent-replayed: true\`: nothing is done twice, across restarts and instances. The same key with a different request
answers 422 \`idempotency_key_reused\`; the same key while the first request still runs, 409
\`idempotency_request_in_progress\`. Once a transaction is recorded its key belongs to it: a retry answers with the
transaction as it stands (still pending: 504 \`processor_timeout\`). A replay never shows a secret again: the API key or
webhook secret of a replayed creation is \`null\`.

## Errors

Every error is \`application/problem+json\` (RFC 9457), one shape for all, the \`Problem\` schema:

\`\`\`json
{ "type": "/problems/insufficient_funds", "title": "Insufficient funds", "status": 402,
  "code": "insufficient_funds", "detail": "The card was declined: Insufficient funds (51).",
  "requestId": "5f0c6a0e-2b7d-4f8e-9a31-0c4d2e6b8f17", "transaction": { "id": "…", "status": "declined" } }
\`\`\`

Branch on \`code\`; \`detail\` is for people. \`errors\` lists each failing field on a \`validation_error\`;
\`transaction\` is the recorded transaction of a decline (402), a processor failure (502) or an unknown outcome (504,
the transaction stays \`pending\` until the processor's answer is known). Each operation lists, per status, the codes it
may answer; any call may meet 429 \`rate_limited\` and 503 \`service_unavailable\` (both with \`retry-after\`, in
seconds: wait that long, then retry with the same \`Idempotency-Key\`), and 500 \`internal_error\`, which never carries
internals. A path called with a method it does not answer is 405 \`method_not_allowed\`, with an \`allow\` header naming
the methods it does.

## Pagination

Lists answer \`{ "data": [...], "nextCursor": "…" | null }\`, newest first. \`limit\` is 1 to 100 (default 20); pass
\`nextCursor\` as \`cursor\` to get the next page, until it is \`null\`. Pages never skip or repeat an item while new
items keep arriving. The event log (\`GET /v1/events\`) pages oldest first, in commit order.

## Test cards

The service ships a simulator of the four processors, used when no processor URLs are configured. It answers by card number
(any future expiry date):

| card number | outcome |
|---|---|
| 4242424242424242, 5555555555554444, 378282246310005 | approved |
| 4000000000000002 | declined, \`card_declined\` (05) |
| 4000000000009995 | declined, \`insufficient_funds\` (51) |
| 4000000000000069 | declined, \`expired_card\` (54) |
| 4000000000000127 | declined, \`incorrect_cvc\` (N7) |
| 4000000000000119 | processor error (96): 502 \`processor_error\`, transaction \`failed\` |
| 4000000000000408 | no answer in time: 504 \`processor_timeout\`, transaction \`pending\`; later reported approved |
| 4000000000000424 | no answer in time; the first two inquiries answer "not found", later ones approved |

## Getting started

1. As the admin, create a client (\`POST /v1/clients\`) and a key for it (\`POST /v1/clients/{clientId}/api-keys\`).
2. As the admin, give the client a host configuration for a processor (\`POST /v1/host-configurations/processor_a\`; each
   processor's example body is ready to paste, with your \`clientId\`).
3. With the client's key, make a sale (\`POST /v1/transactions/sale\`) with a test card, then refund it, read it, list history.
4. Subscribe to outcomes with \`POST /v1/webhook-endpoints\` instead of polling.
`;

export const tags: OpenAPIV3_1.TagObject[] = [
  { name: "service", description: "Where to start: the indexes of the service and of the API (no key needed)." },
  { name: "clients", description: "The platform's clients, their API keys and their transaction limits (admin)." },
  {
    name: "host configurations",
    description:
      "A client's merchant account at a processor: identifiers, settings and write-only credentials. Admin keys write; client keys read their own.",
  },
  {
    name: "transactions",
    description: "Authorizations, captures, sales, refunds and voids (client keys), each a transaction of its own, and their history.",
  },
  {
    name: "payment methods",
    description: "The card vault: cards stored once, encrypted, and charged later by id with paymentMethodId (client keys; admin keys read).",
  },
  { name: "audit", description: "The events transactions are folded from, and the whole event log in commit order, for auditors and exports." },
  {
    name: "settlements",
    description: "Daily settlement batches per host configuration, reconciled against the processor's own totals.",
  },
  {
    name: "journal",
    description: "Double-entry books derived from the event log: every money movement's balanced entry, balances and the trial balance as of any moment.",
  },
  { name: "webhooks", description: "Signed event notifications (Standard Webhooks), their delivery attempts and redelivery." },
  { name: "operations", description: "What an operator watches: projection lag, stuck work, background jobs (admin)." },
];
