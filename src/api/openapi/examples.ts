import type { Processor } from "../../domain/host-configurations/schemas.ts";

/** Example requests and answers of the API reference: one story (Acme sells, refunds, settles), told consistently. */

export const ids = {
  client: "0197a3c2-5b10-7c4e-9d21-6f0e8a1b2c3d",
  apiKey: "0197a3c2-6e4f-7a01-8b5c-2d3e4f5a6b7c",
  hostConfiguration: "0197a3c3-0a1b-7c2d-8e3f-4a5b6c7d8e9f",
  sale: "0197a3c4-1f20-7e31-a842-5b6c7d8e9fa0",
  authorization: "0197a3c4-2a31-7b42-9c53-6d7e8f9a0b1c",
  releasedAuthorization: "0197a3c4-2e38-7a40-8b51-6c7d8e9f0a1b",
  capture: "0197a3c4-3b42-7c53-8d64-7e8f9a0b1c2d",
  refund: "0197a3c4-4c53-7d64-9e75-8f9a0b1c2d3e",
  void: "0197a3c4-5d64-7e75-af86-9a0b1c2d3e4f",
  declined: "0197a3c4-6e75-7f86-b097-0b1c2d3e4f5a",
  settlement: "0197a3c5-6e75-7f86-b097-0b1c2d3e4f5a",
  webhookEndpoint: "0197a3c6-7f86-7097-81a8-1c2d3e4f5a6b",
  webhookDelivery: "e03d0c22-e5f8-59e5-9e53-f35e195a0780",
  webhookAttempt: "0197a3c6-91a8-72b9-a3ca-3e4f5a6b7c8d",
  webhookMessage: "9ddc800f-87a5-5761-bc57-69aa86aeb3f6",
  paymentMethod: "0197a3c3-f1e2-7d3c-9b4a-5f6e7d8c9b0a",
};

const at = (time: string) => `2025-06-12T${time}Z`;

// --- clients ---------------------------------------------------------------------------------

export const limits = [{ currency: "USD", maxAmountPerTransaction: 100000, dailyAmount: 500000, dailyCount: 100 }];

export const client = { id: ids.client, name: "Acme", limits: [], createdAt: at("09:00:00.000") };

export const clientWithLimits = {
  ...client,
  limits: limits.map((limit) => ({ ...limit, today: { date: "2025-06-12", usedAmount: 1099, usedCount: 1 } })),
};

export const apiKey = {
  id: ids.apiKey,
  key: "ldgr_sk_8ttbLyOVKfFjR3PJjvDOsCD1Ql675XNz-pcycOTn2TQ",
  name: "checkout server",
  createdAt: at("09:00:05.000"),
};

export const listedApiKey = {
  id: ids.apiKey,
  prefix: "ldgr_sk_8ttb",
  name: apiKey.name,
  createdAt: apiKey.createdAt,
  revokedAt: null,
  lastUsedAt: at("09:14:00.000"),
};

// --- host configurations ---------------------------------------------------------------------

const company = {
  name: "Acme Corp",
  phone: "555-1234567",
  address: { line1: "1 Main St", line2: null, city: "Springfield", state: "IL", postalCode: "62701", country: "US" },
  location: { latitude: 39.78, longitude: -89.65 },
};
const schedule = { settlementTime: "23:30", timeZone: "America/Chicago" };

const processorParts: Record<Processor, { merchant: object; settings: object; credentials: object }> = {
  processor_a: {
    merchant: { merchantNumber: "000123456789", acquirerBin: "012345", amexSeNumber: null },
    settings: {
      ...schedule,
      agentBank: "000001",
      agentChain: "000002",
      storeNumber: "0001",
      terminalNumber: "0002",
      terminalId: "00000001",
      mcc: "5411",
      mvv: "0A1B2C3D4E",
      industryCode: "R",
    },
    credentials: {},
  },
  processor_b: {
    merchant: { merchantId: "0000MERCH01", groupId: "00G01", tppId: "RSO001", amexSeNumber: null },
    settings: { ...schedule, terminalId: "00000001", mcc: "5812", mvv: null },
    credentials: { datawireId: "00012345678901234567" },
  },
  processor_c: {
    merchant: { platformBin: "000001", merchantId: "012345", amexSeNumber: null },
    settings: { ...schedule, terminalId: "001", clientNumber: "0001", storeNumber: null },
    credentials: { username: "acme-store", password: "correct horse battery staple" },
  },
  processor_d: {
    merchant: { acquirerBin: "000123", merchantId: "0MERCHANT00001", acquiringInstitutionId: null, amexSeNumber: null },
    settings: { ...schedule, terminalId: "0TERM001", terminalNumber: "0001", mcc: "5999", mvv: null },
    credentials: { secretApiKey: "sk_live_51Hx0Acme" },
  },
};

/** A ready-to-paste body of `POST /v1/host-configurations/{processor}` (with a real `clientId`). */
export function hostConfigurationBody(processor: Processor) {
  const { merchant, settings, credentials } = processorParts[processor];
  return {
    clientId: ids.client,
    name: "Main street store",
    enabled: true,
    merchant,
    company,
    settings,
    credentials,
    customProperties: { region: "north" },
  };
}

/** One version of a configuration, as `/versions` lists them. */
export function hostConfigurationVersion(processor: Processor, version: number) {
  const { credentials: _secret, ...sent } = hostConfigurationBody(processor);
  return {
    id: ids.hostConfiguration,
    processor,
    ...sent,
    credentials: { configured: true },
    version,
    createdAt: at("09:01:00.000"),
    updatedAt: version === 1 ? at("09:01:00.000") : at("09:30:00.000"),
  };
}

/** The configuration as it stands: its latest version, and whether it is its client's default. */
export const hostConfiguration = (processor: Processor, version = 1) => ({ ...hostConfigurationVersion(processor, version), isDefault: true });

// --- transactions ----------------------------------------------------------------------------

export const testCard = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123", holderName: "Jane Doe" };

export const paymentBody = {
  processor: "processor_a",
  amount: 1099,
  currency: "USD",
  card: testCard,
  userId: "user_42",
  reference: "order-1001",
  metadata: { orderId: "1001" },
};

const storedCard = { brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "fp_1_SNPvSJWOXRgs-nQmirJ78R3l-rgkOFQ2Zw7PckLQACw" };

const approved = (authorizationCode: string, reference: string) => ({
  code: "00",
  message: "Approved",
  authorizationCode,
  reference,
});

export const sale = {
  id: ids.sale,
  type: "sale",
  status: "approved",
  clientId: ids.client,
  userId: "user_42",
  processor: "processor_a",
  hostConfigurationId: ids.hostConfiguration,
  amount: 1099,
  currency: "USD",
  parentTransactionId: null,
  card: storedCard,
  declineCode: null,
  failureReason: null,
  processorResponse: approved("ZTIYF3", "788941170449"),
  capturedAmount: 1099,
  refundedAmount: 0,
  voided: false,
  settledAt: null,
  settlementId: null,
  expiredAt: null,
  state: "succeeded",
  paymentMethodId: null,
  reference: "order-1001",
  metadata: { orderId: "1001" },
  createdAt: at("10:15:00.519"),
  updatedAt: at("10:15:01.654"),
};

export const refundedSale = { ...sale, refundedAmount: 300, state: "partially_refunded", updatedAt: at("11:00:00.253") };

export const authorization = {
  ...sale,
  id: ids.authorization,
  type: "authorization",
  amount: 5000,
  capturedAmount: 0,
  state: "authorized",
  processorResponse: approved("K7Q2M9", "788941170502"),
  reference: "order-1002",
  metadata: { orderId: "1002" },
  createdAt: at("10:20:00.101"),
  updatedAt: at("10:20:00.412"),
};

const followUp = (id: string, type: string, amount: number, parentTransactionId: string, time: string) => ({
  ...sale,
  id,
  type,
  amount,
  parentTransactionId,
  card: null,
  processorResponse: approved("OHSKJ2", "762610936897"),
  capturedAmount: 0,
  reference: null,
  metadata: {},
  createdAt: at(time),
  updatedAt: at(time),
});

export const capture = { ...followUp(ids.capture, "capture", 3000, ids.authorization, "10:30:00.250"), capturedAmount: 3000 };
export const refund = followUp(ids.refund, "refund", 300, ids.sale, "11:00:00.253");
export const voided = followUp(ids.void, "void", 5000, ids.releasedAuthorization, "10:45:00.118");

export const declinedSale = {
  ...sale,
  id: ids.declined,
  status: "declined",
  card: { ...storedCard, last4: "0002", fingerprint: "fp_1_fjhRBRbo4JanB9vP1VfJLv9v7UrTKhfX2Kxblg6PebE" },
  declineCode: "card_declined",
  processorResponse: { code: "05", message: "Do not honor", authorizationCode: null, reference: "434938910393" },
  capturedAmount: 0,
  state: "declined",
  reference: "order-1003",
  metadata: { orderId: "1003" },
};

/** What a declined, failed or unknown outcome carries in its problem's `transaction`. */
export const recordedTransaction = (outcome: "declined" | "failed" | "pending") => {
  if (outcome === "declined") return declinedSale;
  if (outcome === "failed") {
    return {
      ...declinedSale,
      status: "failed",
      state: "failed",
      declineCode: null,
      failureReason: "processor_error",
      processorResponse: { code: "96", message: "System error", authorizationCode: null, reference: null },
    };
  }
  return { ...declinedSale, status: "pending", state: "pending", declineCode: null, processorResponse: null };
};

const chain = (hash: string, previous: string | null) => ({ hash, previous });
const checked = (link: ReturnType<typeof chain>) => ({ ...link, status: "verified", problems: [] });

export const saleEvents = [
  {
    id: "891f2baa-fef8-4f20-bc20-d4e93b27a6e0",
    streamId: `payment-${ids.sale}`,
    position: "11",
    revision: 0,
    type: "TransactionInitiated.v1",
    occurredAt: sale.createdAt,
    recordedAt: at("10:15:00.558"),
    data: {
      transactionId: ids.sale,
      type: "sale",
      clientId: ids.client,
      userId: "user_42",
      processor: "processor_a",
      hostConfigurationId: ids.hostConfiguration,
      hostConfigurationVersion: 1,
      amount: 1099,
      currency: "USD",
      card: storedCard,
      parentTransactionId: null,
      reason: null,
      reference: "order-1001",
      metadata: { orderId: "1001" },
      occurredAt: sale.createdAt,
    },
    metadata: {
      actor: { role: "client", clientId: ids.client, keyId: ids.apiKey },
      requestId: "41ed535b-d55e-4789-8db0-e69f046f772b",
      idempotencyKey: "order-1001",
      chain: chain("22d3a6b6d7c3cd384cd6b4cd15d0ff45b9859898efde992020bbf6f08f85b11d", null),
    },
    chain: checked(chain("22d3a6b6d7c3cd384cd6b4cd15d0ff45b9859898efde992020bbf6f08f85b11d", null)),
  },
  {
    id: "5e161ac8-ccff-46db-a898-90feaa9e5d28",
    streamId: `payment-${ids.sale}`,
    position: "12",
    revision: 1,
    type: "TransactionApproved.v1",
    occurredAt: sale.updatedAt,
    recordedAt: at("10:15:01.656"),
    data: { transactionId: ids.sale, processorResponse: sale.processorResponse, occurredAt: sale.updatedAt },
    metadata: {
      actor: { role: "client", clientId: ids.client, keyId: ids.apiKey },
      requestId: "41ed535b-d55e-4789-8db0-e69f046f772b",
      idempotencyKey: "order-1001",
      chain: chain(
        "2d72966e87c403e0f51d1fb7b1fd075f738e5020648655799c8b3fffe33bdaf5",
        "22d3a6b6d7c3cd384cd6b4cd15d0ff45b9859898efde992020bbf6f08f85b11d",
      ),
    },
    chain: checked(
      chain(
        "2d72966e87c403e0f51d1fb7b1fd075f738e5020648655799c8b3fffe33bdaf5",
        "22d3a6b6d7c3cd384cd6b4cd15d0ff45b9859898efde992020bbf6f08f85b11d",
      ),
    ),
  },
];

// --- settlements -----------------------------------------------------------------------------

const totals = [{ currency: "USD", salesCount: 2, salesAmount: 4099, refundsCount: 1, refundsAmount: 300, netAmount: 3799 }];

export const settlement = {
  id: ids.settlement,
  clientId: ids.client,
  processor: "processor_a",
  hostConfigurationId: ids.hostConfiguration,
  closedAt: at("23:30:01.158"),
  cutoff: at("23:30:00.000"),
  status: "matched",
  totals,
  processorTotals: totals,
  transactionCount: 3,
};

// --- journal ---------------------------------------------------------------------------------

const line = (account: string, debit: number, credit: number) => ({ account, processor: "processor_a", currency: "USD", debit, credit });

export const journalEntry = {
  id: "6f1c2b9e-3d4a-5b6c-8d7e-9f0a1b2c3d4e",
  kind: "refund_approved",
  clientId: ids.client,
  processor: "processor_a",
  currency: "USD",
  paymentId: ids.sale,
  transactionId: ids.refund,
  settlementId: null,
  occurredAt: at("11:00:00.611"),
  eventId: "0197a3c4-4c60-7d64-9e75-8f9a0b1c2d3e",
  eventType: "TransactionApproved.v1",
  eventPosition: "1843",
  lines: [line("processor_receivable", 0, 300), line("refunds", 300, 0)],
};

const balance = (account: string, normalSide: "debit" | "credit", debit: number, credit: number) => ({
  clientId: ids.client,
  account,
  processor: "processor_a",
  currency: "USD",
  debit,
  credit,
  normalSide,
  balance: normalSide === "debit" ? debit - credit : credit - debit,
});

export const journalBalances = {
  asOf: at("12:00:00.000"),
  data: [
    balance("processor_receivable", "debit", 4099, 300),
    balance("sales", "credit", 0, 4099),
    balance("refunds", "debit", 300, 0),
    balance("holds", "debit", 5000, 3000),
    balance("holds_offset", "credit", 3000, 5000),
  ],
};

export const trialBalance = {
  asOf: at("12:00:00.000"),
  data: [
    {
      currency: "USD",
      debit: 6099,
      credit: 6099,
      balanced: true,
      accounts: [
        { account: "processor_receivable", processor: "processor_a", debit: 3799, credit: 0 },
        { account: "sales", processor: "processor_a", debit: 0, credit: 4099 },
        { account: "refunds", processor: "processor_a", debit: 300, credit: 0 },
        { account: "holds", processor: "processor_a", debit: 2000, credit: 0 },
        { account: "holds_offset", processor: "processor_a", debit: 0, credit: 2000 },
      ],
    },
  ],
};

// --- webhooks --------------------------------------------------------------------------------

export const webhookEndpointBody = {
  url: "https://shop.example/hooks/ledger",
  events: ["transaction.approved", "transaction.declined", "settlement.mismatched"],
  description: "Order updates",
};

export const webhookEndpoint = {
  id: ids.webhookEndpoint,
  clientId: ids.client,
  ...webhookEndpointBody,
  enabled: true,
  disabledReason: null,
  createdAt: at("09:05:00.307"),
  updatedAt: at("09:05:00.307"),
};

export const webhookEndpointWithSecret = { ...webhookEndpoint, secret: "whsec_sBlMGbGDGz8GWtePYUb9EpXyDrTtaVeNCnxU7XbwvLo=" };

export const webhookAttempt = {
  id: ids.webhookAttempt,
  deliveryId: ids.webhookDelivery,
  eventId: ids.webhookMessage,
  eventType: "transaction.approved",
  attempt: 1,
  status: "pending",
  responseStatus: 503,
  durationMs: 31,
  error: null,
  nextAttemptAt: at("10:16:01.775"),
  createdAt: at("10:15:01.687"),
};

export const page = <T>(data: T[]) => ({ data, nextCursor: null });

// --- payment methods -------------------------------------------------------------------------

export const paymentMethodBody = {
  card: { number: "4242424242424242", expMonth: 12, expYear: 2030, holderName: "Jane Doe" },
  userId: "user_42",
  metadata: { customer: "42" },
};

export const paymentMethod = {
  id: ids.paymentMethod,
  type: "card",
  clientId: ids.client,
  card: storedCard,
  userId: "user_42",
  metadata: { customer: "42" },
  createdAt: at("10:10:00.000"),
};
