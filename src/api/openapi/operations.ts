import { type Processor, processors } from "../../domain/host-configurations/schemas.ts";
import type { ProblemCode } from "../problems.ts";
import * as example from "./examples.ts";

/**
 * What the route schemas cannot say of an operation, keyed `METHOD /v1/path` as the document
 * names it. Every /v1 operation has an entry (a test holds this), so a new route is documented
 * before it ships.
 */
export interface OperationDoc {
  /** Problem codes it answers beyond those its kind always may (see `responses.ts`). */
  errors?: ProblemCode[];
  /** An example request body. */
  request?: unknown;
  /** An example of the success answer's body (none for 204). */
  response?: unknown;
  /** Added after the route's own description. */
  description?: string;
  /** The success answer carries `etag: "<version>"`. */
  etag?: true;
}

const declines: ProblemCode[] = ["card_declined", "insufficient_funds", "expired_card", "incorrect_cvc"];
const processorFailures: ProblemCode[] = ["processor_error", "processor_authentication_failed", "processor_timeout"];
const unusableHostConfiguration: ProblemCode[] = ["host_configuration_missing", "host_configuration_disabled"];
const followUpErrors: ProblemCode[] = [
  "not_found",
  "invalid_transaction_state",
  "card_declined",
  ...unusableHostConfiguration,
  ...processorFailures,
];

const testCards = `
Test cards of the processor simulator (the processors used when none is configured): any future expiry; a CVC, when sent,
of 3 digits (4 for American Express):

| card number | outcome |
|---|---|
| 4242424242424242, 5555555555554444, 378282246310005 | approved |
| 4000000000000002 | declined: 402 \`card_declined\` (05) |
| 4000000000009995 | declined: 402 \`insufficient_funds\` (51) |
| 4000000000000069 | declined: 402 \`expired_card\` (54) |
| 4000000000000127 | declined: 402 \`incorrect_cvc\` (N7) |
| 4000000000000119 | processor error (96): 502 \`processor_error\`, transaction \`failed\` |
| 4000000000000408 | no answer in time: 504 \`processor_timeout\`, transaction \`pending\`; asked later, the processor reports it approved |
| 4000000000000424 | no answer in time; the first two inquiries answer "not found", later ones approved (the transaction ends \`approved\`) |

A \`processor_c\` host configuration whose password is \`invalid-password\`, or a \`processor_d\` one whose
\`secretApiKey\` is \`invalid-key\`, is rejected by the simulator: 502 \`processor_authentication_failed\`.`;

const paymentDescription = (kind: string) => `
Charges the card through the processor named, on \`hostConfigurationId\` or else the client's default enabled host configuration for
that processor (its only enabled one, or the one made default with \`PUT /v1/host-configurations/{processor}/{id}/default\`).
${kind} The card is \`card\`, or a stored one named by \`paymentMethodId\` (\`POST /v1/payment-methods\`), with an optional
\`cvc\` beside it: exactly one of the two. A deleted payment method, or another client's, is 404 \`not_found\`. Approved: 201 with the transaction. Declined, failed and unknown outcomes answer their problem with the recorded
transaction in \`transaction\`. Counts toward the client's limits (402 \`limit_exceeded\`, recorded as declined).
The full card number, the CVC and the BIN are never stored, logged or returned: the transaction keeps its brand, last four,
expiry and, for a card sent inline, a keyed fingerprint (a stored card's fingerprint stays with its payment method). A payment
method stored for another \`userId\` is 422 \`payment_method_user_mismatch\`, and nothing is recorded or sent.
${testCards}`;

const transactionDocs: Record<string, OperationDoc> = {
  "POST /v1/transactions/authorization": {
    errors: [...declines, "not_found", "limit_exceeded", ...unusableHostConfiguration, "host_configuration_ambiguous", ...processorFailures],
    request: { ...example.paymentBody, amount: 5000, reference: "order-1002", metadata: { orderId: "1002" } },
    response: example.authorization,
    description: paymentDescription(
      `Holds the amount: capture it (in parts if you like) with \`POST /v1/transactions/capture\` within the authorization's lifetime
(7 days by default), or release it with \`POST /v1/transactions/void\`.`,
    ),
  },
  "POST /v1/transactions/sale": {
    errors: [...declines, "not_found", "limit_exceeded", ...unusableHostConfiguration, "host_configuration_ambiguous", ...processorFailures],
    request: example.paymentBody,
    response: example.sale,
    description: paymentDescription("Authorizes and captures in one step."),
  },
  "POST /v1/transactions/capture": {
    errors: [...followUpErrors, "amount_exceeds_capturable"],
    request: { transactionId: example.ids.authorization, amount: 3000 },
    response: example.capture,
    description:
      "`amount` left out captures all that is still capturable. Several partial captures may follow one another; " +
      "their sum never exceeds the authorized amount. `final: true` releases what is left of the authorization at the " +
      "processor once this capture is approved, exactly as a void of the authorization does: a `void` transaction whose " +
      "`amount` is the rest. While a final capture is pending, nothing else can be captured.",
  },
  "POST /v1/transactions/refund": {
    errors: [...followUpErrors, "amount_exceeds_refundable"],
    request: { transactionId: example.ids.sale, amount: 300, reason: "damaged in transit" },
    response: example.refund,
    description:
      "Refunds a sale or a capture. `amount` left out refunds all that is still refundable; the sum of refunds that did not " +
      "fail never exceeds what was captured or sold, even under concurrency.",
  },
  "POST /v1/transactions/void": {
    errors: followUpErrors,
    request: { transactionId: example.ids.releasedAuthorization },
    response: example.voided,
    description:
      "Voids an authorization that is not expired and has something left to capture, or a sale or capture that is " +
      "neither settled nor refunded; anything else is 409 `invalid_transaction_state`. A void of an authorization with " +
      "captures releases only the uncaptured rest at the processor: the void's `amount` is that rest, the captures stay " +
      "as they are, and the rest is given back to the client's limits. While a capture (or a capture's void) of the " +
      "authorization is still pending, the rest is not known yet: 409, to retry once it is answered.",
  },
  "GET /v1/transactions/{id}": { response: example.sale },
  "GET /v1/transactions": { response: example.page([example.refund, example.refundedSale]) },
  "GET /v1/transactions/{id}/events": {
    response: { streamId: `payment-${example.ids.sale}`, events: example.saleEvents, brokenLinks: 0 },
    description: "Each event carries who caused it, in which request, and its link in the stream's hash chain.",
  },
  "GET /v1/events": { response: { data: example.saleEvents, nextCursor: "MTI6MQ", brokenLinks: 0 } },
  "GET /v1/audit/checkpoint-keys": {
    response: {
      keys: [
        {
          keyId: "3f6c1a9e20b47d55",
          algorithm: "ed25519",
          publicKey: "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n",
          publishedAt: "2026-11-27T09:00:00.000Z",
        },
      ],
    },
  },
};

const clientDocs: Record<string, OperationDoc> = {
  "POST /v1/clients": { request: { name: "Acme" }, response: example.client },
  "GET /v1/me": {
    response: { role: "client", clientId: example.ids.client, keyId: example.ids.apiKey },
    description: "A client key learns its client id here, to read its own client (`GET /v1/clients/{clientId}`: limits and today's usage).",
  },
  "GET /v1/clients": { response: example.page([example.clientWithLimits]) },
  "GET /v1/clients/{clientId}": { response: example.clientWithLimits },
  "PUT /v1/clients/{clientId}/limits": {
    request: { limits: example.limits },
    response: example.clientWithLimits,
    description:
      "Authorizations and sales count toward the limits; a declined, failed or voided one gives its amount back. " +
      "Limits hold exactly under concurrency: of many simultaneous requests, those that fit are approved and the rest get 402 `limit_exceeded`.",
  },
  "POST /v1/clients/{clientId}/api-keys": {
    request: { name: example.apiKey.name },
    response: example.apiKey,
    description:
      "The key is shown only in this answer: store it now. A replay of this request answers `key: null`. " +
      "`name` is optional (1 to 100 printable characters, trimmed; null when none).",
  },
  "GET /v1/clients/{clientId}/api-keys": { response: example.page([example.listedApiKey]) },
  "DELETE /v1/clients/{clientId}/api-keys/{keyId}": { description: "The key stops working at once, on every instance." },
};

const processorTable = `
| processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
|---|---|---|---|
| processor_a | \`merchantNumber\` 12 digits; \`acquirerBin\` 6 digits; \`amexSeNumber\`? 10 digits | \`agentBank\` 6 digits; \`agentChain\` 6 digits; \`storeNumber\` 4 digits; \`terminalNumber\` 4 digits; \`terminalId\` 8 digits; \`mcc\` 4 digits; \`mvv\`? 10 hex (0-9A-F); \`industryCode\`? one of D F G R | none |
| processor_b | \`merchantId\` 1-16 alphanumeric; \`groupId\` 5-13 alphanumeric; \`tppId\` 6 alphanumeric; \`amexSeNumber\`? 1-15 alphanumeric | \`terminalId\` 1-8 alphanumeric; \`mcc\` 4 digits; \`mvv\`? 1-10 digits | \`datawireId\` 20 digits |
| processor_c | \`platformBin\` \`000001\` or \`000002\`; \`merchantId\` 6 digits when the BIN is \`000001\`, 12 when \`000002\`; \`amexSeNumber\`? 10 digits | \`terminalId\` 3 digits (default \`001\`); \`clientNumber\`? 4 digits; \`storeNumber\`? 4 digits | \`username\`, \`password\` |
| processor_d | \`acquirerBin\` 6 digits; \`merchantId\` 1-15 alphanumeric; \`acquiringInstitutionId\`? 1-11 digits; \`amexSeNumber\`? 10 digits | \`terminalId\` 8-16 alphanumeric; \`terminalNumber\`? 4 digits; \`mcc\`? 4 digits; \`mvv\`? 10 hex | \`secretApiKey\` |

\`settlementTime\` is \`HH:MM\` (24 h) in the IANA \`timeZone\`: the configuration's settlement batch closes then, every day.
\`customProperties\`: at most 50 string pairs, keys \`^[a-z][a-z0-9_]{0,63}$\`, values up to 500 characters. Identifiers are
strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (\`credentials: { "configured": true }\`
stands in their place) and never logged.`;

function hostConfigurationDocs(processor: Processor): Record<string, OperationDoc> {
  const base = `/v1/host-configurations/${processor}`;
  const body = example.hostConfigurationBody(processor);
  const view = example.hostConfiguration(processor);
  return {
    [`POST ${base}`]: { errors: ["not_found"], request: body, response: view, etag: true, description: processorTable },
    [`GET ${base}`]: { response: example.page([view]), description: "Client keys see their own; admin keys may name a client with `clientId`." },
    [`GET ${base}/{id}`]: { response: view, etag: true },
    [`PUT ${base}/{id}`]: {
      errors: ["version_conflict"],
      request: { ...body, name: "Main street store (north)" },
      response: { ...example.hostConfiguration(processor, 2), name: "Main street store (north)" },
      etag: true,
      description: `A full replacement; \`credentials\` left out keeps the stored ones. Send the \`etag\` you read as \`If-Match\`
to refuse the change (412 \`version_conflict\`) when someone changed the configuration since.
${processorTable}`,
    },
    [`GET ${base}/{id}/versions`]: {
      response: { data: [example.hostConfigurationVersion(processor, 1), { ...example.hostConfigurationVersion(processor, 2), name: "Main street store (north)" }] },
    },
    [`PUT ${base}/{id}/default`]: {
      errors: ["host_configuration_disabled"],
      response: view,
      etag: true,
      description:
        "With one enabled configuration for a processor, payments that name no `hostConfigurationId` use it; with several, " +
        "they use the default, and answer 422 `host_configuration_ambiguous` while none is chosen.",
    },
    [`POST ${base}/{id}/settle`]: {
      errors: ["nothing_to_settle", "settlement_in_progress", "processor_error"],
      response: { ...example.settlement, processor },
    },
  };
}

const paymentMethodDocs: Record<string, OperationDoc> = {
  "POST /v1/payment-methods": {
    errors: ["forbidden"],
    request: example.paymentMethodBody,
    response: example.paymentMethod,
    description: `Charge it later with \`paymentMethodId\` instead of \`card\` on \`POST /v1/transactions/sale\` or \`/authorization\`
(a CVC, when needed, goes beside it there: it is never stored, so \`card.cvc\` is refused here). The number is kept only encrypted
(AES-256-GCM) under a data key of this payment method's own, wrapped by the master keys and stored apart from the event log.`,
  },
  "GET /v1/payment-methods/{id}": { response: example.paymentMethod },
  "GET /v1/payment-methods": { response: example.page([example.paymentMethod]) },
  "DELETE /v1/payment-methods/{id}": {
    description: `Erases the payment method's data key: from then on its card number can be recovered by no one, from no copy of the
database or the event log. A payment that names it is 404 \`not_found\`; transactions made with it keep their card summary. A payment
under way whose card is not yet decrypted is recorded \`failed\` (\`payment_method_deleted\`) before anything is sent, and answers 404.`,
  },
  "GET /v1/payment-methods/{id}/events": {
    response: {
      streamId: `payment-method-${example.ids.paymentMethod}`,
      events: [],
    },
    description: "`PaymentMethodCreated.v1`, `PaymentMethodDeleted.v1` and, among them in log order, the intent (`TransactionInitiated.v1`, " +
      "in the payment's stream) of every payment made with it, which names it: the record of its use (uses recorded before that are " +
      "`PaymentMethodUsed.v1` events of its stream). Never the number; the card's ciphertext shows as `[encrypted]` " +
      "(each event's `chain` is checked on the stored event, ciphertext included; `ledger export` carries it for offline checks).",
  },
};

const settlementDocs: Record<string, OperationDoc> = {
  "GET /v1/settlements": { response: example.page([example.settlement]) },
  "GET /v1/settlements/{id}": { response: example.settlement },
  "GET /v1/settlements/{id}/transactions": { response: example.page([example.refund, example.capture, example.sale]) },
};

const journalDocs: Record<string, OperationDoc> = {
  "GET /v1/journal/entries": { response: example.page([example.journalEntry]) },
  "GET /v1/journal/balances": { response: example.journalBalances },
  "GET /v1/journal/trial-balance": { response: example.trialBalance },
};

const webhookDocs: Record<string, OperationDoc> = {
  "POST /v1/webhook-endpoints": {
    errors: ["forbidden", "not_found"],
    request: example.webhookEndpointBody,
    response: example.webhookEndpointWithSecret,
    description: `Deliveries follow the Standard Webhooks specification (standardwebhooks.com): \`POST <url>\` with the headers
\`webhook-id\` (the same on every retry), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature\`
(\`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">\`, keyed with the base64-decoded secret after \`whsec_\`),
and the body \`{ "id", "type", "createdAt", "data": { "transaction" } }\` (\`data.settlement\` for settlement events).
A 2xx within 10 s is delivered; anything else is retried with exponential backoff for up to 3 days. The events of one
transaction reach an endpoint in the order they happened. \`secret\` is shown only in this answer (a replay answers \`null\`).`,
  },
  "GET /v1/webhook-endpoints": { response: example.page([example.webhookEndpoint]) },
  "GET /v1/webhook-endpoints/{id}": { response: example.webhookEndpoint },
  "PATCH /v1/webhook-endpoints/{id}": { request: { enabled: false }, response: { ...example.webhookEndpoint, enabled: false } },
  "DELETE /v1/webhook-endpoints/{id}": {},
  "POST /v1/webhook-endpoints/{id}/rotate-secret": {
    request: {},
    response: { ...example.webhookEndpointWithSecret, secret: "whsec_Vq0b0n5mWl3cQk4nK7vJ0dXo9sF2aZr8YtPbE1hG6uI=" },
  },
  "POST /v1/webhook-endpoints/{id}/test": {
    request: {},
    response: { deliveryId: example.ids.webhookDelivery, eventId: example.ids.webhookMessage, status: "pending" },
    description: `The body is \`{ "id", "type": "webhook.test", "createdAt", "data": { "endpointId" } }\`, with the usual headers and
signature. Another client's endpoint is 404.`,
  },
  "GET /v1/webhook-endpoints/{id}/deliveries": { response: example.page([example.webhookAttempt]) },
  "POST /v1/webhook-deliveries/{id}/redeliver": { request: {}, response: { deliveryId: example.ids.webhookDelivery, status: "pending" } },
};

const operationsDocs: Record<string, OperationDoc> = {
  "GET /v1/operations/status": {
    response: {
      checkedAt: "2025-06-12T12:00:00.000Z",
      projections: [{ projection: "transactions", headPosition: "1842", projectedPosition: "1842", positionsBehind: "0", secondsBehind: 0 }],
      pending: { byAge: { "<1m": 1, "1m-10m": 0, "10m-1h": 0, ">=1h": 0 }, oldestSeconds: 4.2 },
      resolver: {
        owed: { inquire: 1, reverse: 0, watch: 0 },
        lastPass: {
          at: "2025-06-12T11:59:58.000Z",
          counts: { approved: 2, declined: 0, failed: 0, approved_late: 0, reversed: 1, reversal_refused: 0, still_pending: 1, errored: 0 },
        },
      },
      jobs: [{ name: "pending-resolver", active: true, lastSeenAt: "2025-06-12T11:59:58.000Z", leaseExpiresAt: "2025-06-12T12:00:08.000Z" }],
      webhooks: { pending: 0, oldestSeconds: 0 },
      settlements: { mismatched: 0 },
    },
  },
};

export const operationDocs: Record<string, OperationDoc> = {
  ...clientDocs,
  ...Object.assign({}, ...processors.map(hostConfigurationDocs)),
  ...transactionDocs,
  ...paymentMethodDocs,
  ...settlementDocs,
  ...journalDocs,
  ...webhookDocs,
  ...operationsDocs,
};
