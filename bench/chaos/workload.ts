import { setTimeout as delay } from "node:timers/promises";
import { Agent, request } from "undici";
import { z } from "zod";
import { type Body, validBodies } from "../../tests/support/host-configurations.ts";
import type { Random } from "./random.ts";
import type { ScheduledClose } from "./schedule.ts";

export type Processor = "processor_a" | "processor_b" | "processor_c" | "processor_d";

const processors: readonly Processor[] = ["processor_a", "processor_b", "processor_c", "processor_d"];

export interface WorkloadClient {
  clientId: string;
  key: string;
  hostConfigurationIds: Record<Processor, string>;
  limit: { currency: "USD"; dailyAmount: number; maxAmountPerTransaction: number };
  /** When each host configuration's batch closes on schedule during the run; null: at the valid body's 23:30 in Chicago. */
  scheduledCloses: Record<Processor, ScheduledClose | null>;
}

type Operation = "authorization" | "sale" | "capture" | "refund" | "void";

/** One answer the workload received for a POST that carried a transaction (any status whose body is a transaction: 201, 402, 502, 504). */
export interface Answer {
  clientId: string;
  idempotencyKey: string;
  operation: Operation;
  httpStatus: number;
  transactionId: string;
  status: "pending" | "approved" | "declined" | "failed";
  amount: number;
  parentTransactionId: string | null;
  /** The `reference` the workload sent (authorizations and sales: unique per logical operation), or null. */
  reference: string | null;
  /** The stored card a sale or authorization named; null for a card sent inline and for follow-ups. */
  paymentMethodId: string | null;
  /** ISO time the logical operation's first attempt was sent. */
  sentAt: string;
  /** ISO time the answer arrived. */
  at: string;
}

/** A card the workload stored in the vault, as it knows it. */
export interface StoredPaymentMethod {
  clientId: string;
  id: string;
  /** The last four digits of the number the workload stored. */
  last4: string;
  /** ISO time its DELETE was answered 204; null while it stands (or when its deletion went unanswered). */
  deletedAt: string | null;
}

export interface WorkloadStats {
  /**
   * Count per `${operation} ${outcome}`: the final HTTP status, `gave_up`, or for a 4xx without a
   * transaction its status and code (`422 amount_exceeds_capturable`). Reads: `read ${status}`,
   * `history ${status}` (one per page).
   */
  outcomes: Map<string, number>;
  /** Extra attempts made with an already used Idempotency-Key. */
  retries: number;
  /** Logical operations abandoned after the retry budget. */
  gaveUp: number;
}

export interface WorkloadOptions {
  /** Service instances; each attempt goes to one at random, a retry after a connection error tries another. */
  baseUrls: readonly string[];
  clients: readonly WorkloadClient[];
  /** The operator's key, for closing settlement batches by hand. */
  adminKey: string;
  random: Random;
  /** Concurrent virtual users; each sends one request at a time. */
  users: number;
  /** No new logical operation starts once this is aborted; operations in flight finish their retries (bounded by retryBudgetMs). */
  signal: AbortSignal;
  /** How long one logical operation may keep retrying before it gives up. Default 60_000. */
  retryBudgetMs?: number;
  /** Per-attempt timeout (headers and body). Default 20_000. */
  attemptTimeoutMs?: number;
  /** Called with every Answer as it arrives (the harness also gets them all at the end). */
  onAnswer?: (answer: Answer) => void;
}

const DEFAULT_RETRY_BUDGET_MS = 60_000;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 20_000;
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 5_000;
const HISTORY_PAGE_SIZE = 20;
const HISTORY_MAX_PAGES = 3;

// ---------------------------------------------------------------------------------------------
// Responses, parsed at the edge

const transactionSchema = z.object({
  id: z.string(),
  status: z.enum(["pending", "approved", "declined", "failed"]),
  amount: z.number().int(),
  parentTransactionId: z.string().nullable(),
});
type Transaction = z.infer<typeof transactionSchema>;

/** A problem+json body of a decline, failure or unknown outcome carries the recorded transaction. */
const problemWithTransactionSchema = z.object({ transaction: transactionSchema });
const problemSchema = z.object({ code: z.string() });
const historyPageSchema = z.object({ data: z.array(z.unknown()), nextCursor: z.string().nullable() });
const createdSchema = z.object({ id: z.string() });
/** A replayed key creation answers `key: null`: the secret is shown only once. */
const issuedKeySchema = z.object({ id: z.string(), key: z.string().nullable() });

interface ApiResponse {
  status: number;
  body: unknown;
  retryAfterMs: number | undefined;
}

function transactionOf({ status, body }: ApiResponse): Transaction | undefined {
  if (status >= 200 && status < 300) return transactionSchema.safeParse(body).data;
  return problemWithTransactionSchema.safeParse(body).data?.transaction;
}

const problemCodeOf = (body: unknown): string | undefined => problemSchema.safeParse(body).data?.code;

// ---------------------------------------------------------------------------------------------
// HTTP with a careful integrator's retries

interface ApiCall {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  key: string;
  body?: unknown;
  /** The same on every attempt, so that a retry is answered, never run again. */
  idempotencyKey?: string;
}

interface Transport {
  agent: Agent;
  baseUrls: readonly string[];
  /** Jitter and the choice of instance. */
  random: Random;
  retryBudgetMs: number;
  attemptTimeoutMs: number;
}

/** `response` is the last one received; a call that gave up may have received none. */
type CallResult =
  | { gaveUp: false; response: ApiResponse; attempts: number }
  | { gaveUp: true; response: ApiResponse | undefined; attempts: number };

function createAgent(attemptTimeoutMs: number): Agent {
  return new Agent({ connect: { timeout: attemptTimeoutMs }, headersTimeout: attemptTimeoutMs, bodyTimeout: attemptTimeoutMs });
}

/**
 * Sends `call` until it gets an answer not worth retrying, or the retry budget is spent (the
 * last attempt may overrun the budget by up to one attempt timeout). `onResponse` sees every
 * response, the retried ones included.
 */
async function callWithRetries(
  transport: Transport,
  call: ApiCall,
  onResponse: (response: ApiResponse) => void = () => {},
): Promise<CallResult> {
  const deadline = Date.now() + transport.retryBudgetMs;
  let baseUrl = transport.random.pick(transport.baseUrls);
  let lastResponse: ApiResponse | undefined;
  for (let attempts = 1; ; attempts += 1) {
    const response = await attemptOnce(transport, baseUrl, call);
    if (response) {
      lastResponse = response;
      onResponse(response);
      if (!isWorthRetrying(response)) return { gaveUp: false, response, attempts };
    }
    const waitMs = Math.max(backoffMs(transport.random, attempts), response?.retryAfterMs ?? 0);
    if (Date.now() + waitMs >= deadline) return { gaveUp: true, response: lastResponse, attempts };
    await delay(waitMs);
    baseUrl = response ? transport.random.pick(transport.baseUrls) : anotherBaseUrl(transport, baseUrl);
  }
}

/** One attempt; undefined when no response came (refused, reset, closed, timed out). */
async function attemptOnce(transport: Transport, baseUrl: string, call: ApiCall): Promise<ApiResponse | undefined> {
  const headers: Record<string, string> = { authorization: `Bearer ${call.key}` };
  if (call.body !== undefined) headers["content-type"] = "application/json";
  if (call.idempotencyKey !== undefined) headers["idempotency-key"] = call.idempotencyKey;
  try {
    const response = await request(`${baseUrl}${call.path}`, {
      dispatcher: transport.agent,
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: AbortSignal.timeout(transport.attemptTimeoutMs),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: parseJson(text), retryAfterMs: retryAfterMsOf(response.headers["retry-after"]) };
  } catch (error) {
    if (isTransportFailure(error)) return undefined;
    throw error;
  }
}

/** Failures of the connection or of the attempt's time: the request may or may not have reached the service. */
const transportErrorCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_ABORTED",
]);

function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "TimeoutError") return true;
  return "code" in error && typeof error.code === "string" && transportErrorCodes.has(error.code);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function retryAfterMsOf(header: string | string[] | undefined): number | undefined {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return header !== undefined && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function isWorthRetrying(response: ApiResponse): boolean {
  if (response.status === 429) return true;
  if (response.status === 409) return problemCodeOf(response.body) === "idempotency_request_in_progress";
  if (response.status < 500) return false;
  // A 5xx with a decided transaction (a 502 `failed`) answers the same on every retry; one
  // still pending (504) may be decided by now; one without a transaction never ran.
  const transaction = transactionOf(response);
  return transaction === undefined || transaction.status === "pending";
}

/** Exponential from 200 ms, capped at 5 s, with jitter over its upper half. */
function backoffMs(random: Random, attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempts - 1));
  return random.int(Math.ceil(ceiling / 2), ceiling);
}

function anotherBaseUrl(transport: Transport, current: string): string {
  const others = transport.baseUrls.filter((baseUrl) => baseUrl !== current);
  return others.length > 0 ? transport.random.pick(others) : current;
}

// ---------------------------------------------------------------------------------------------
// Client setup

const clientLimit = { currency: "USD", maxAmountPerTransaction: 10_000, dailyAmount: 5_000_000 } as const;

/**
 * Creates `count` clients with a key each, one enabled host configuration on each of the four
 * processors, and a USD limit; retries (same Idempotency-Key) like the workload does. Given
 * `settlementTimes`, each host configuration's batch closes at one of them, drawn.
 */
export async function setUpClients(options: {
  baseUrl: string;
  adminKey: string;
  count: number;
  random: Random;
  settlementTimes?: readonly ScheduledClose[];
}): Promise<WorkloadClient[]> {
  const agent = createAgent(DEFAULT_ATTEMPT_TIMEOUT_MS);
  const transport: Transport = {
    agent,
    baseUrls: [options.baseUrl],
    random: options.random,
    retryBudgetMs: DEFAULT_RETRY_BUDGET_MS,
    attemptTimeoutMs: DEFAULT_ATTEMPT_TIMEOUT_MS,
  };
  try {
    const clients: WorkloadClient[] = [];
    for (let index = 1; index <= options.count; index += 1) {
      clients.push(await setUpClient(transport, options.adminKey, index, options.settlementTimes ?? []));
    }
    return clients;
  } finally {
    await agent.close();
  }
}

async function setUpClient(
  transport: Transport,
  adminKey: string,
  index: number,
  settlementTimes: readonly ScheduledClose[],
): Promise<WorkloadClient> {
  const admin = (method: ApiCall["method"], path: string, body: unknown, expectedStatus: number) =>
    adminCall(transport, { method, path, key: adminKey, body }, expectedStatus);
  const clientId = createdSchema.parse(await admin("POST", "/v1/clients", { name: `chaos-client-${index}` }, 201)).id;
  const key = await issueKey(transport, adminKey, clientId);
  const draw = () => (settlementTimes.length > 0 ? transport.random.pick(settlementTimes) : null);
  const scheduledCloses = { processor_a: draw(), processor_b: draw(), processor_c: draw(), processor_d: draw() };
  const hostConfiguration = async (processor: Processor) => {
    const body = { ...withSettlementTime(validBodies[processor], scheduledCloses[processor]), clientId };
    return createdSchema.parse(await admin("POST", `/v1/host-configurations/${processor}`, body, 201)).id;
  };
  const hostConfigurationIds = {
    processor_a: await hostConfiguration("processor_a"),
    processor_b: await hostConfiguration("processor_b"),
    processor_c: await hostConfiguration("processor_c"),
    processor_d: await hostConfiguration("processor_d"),
  };
  await admin("PUT", `/v1/clients/${clientId}/limits`, { limits: [clientLimit] }, 200);
  return { clientId, key, hostConfigurationIds, limit: clientLimit, scheduledCloses };
}

function withSettlementTime(body: Body, close: ScheduledClose | null): Body {
  if (close === null) return body;
  const { settings } = body;
  if (typeof settings !== "object" || settings === null || Array.isArray(settings)) throw new Error("a valid host configuration body has settings");
  return { ...body, settings: { ...settings, settlementTime: close.settlementTime, timeZone: "UTC" } };
}

/**
 * A new API key. If the first answer was lost, the retry's replay hides the key (`null`): that key
 * is left unused and another one is issued under a new Idempotency-Key.
 */
async function issueKey(transport: Transport, adminKey: string, clientId: string): Promise<string> {
  const maxIssues = 3;
  for (let issue = 1; issue <= maxIssues; issue += 1) {
    const body = await adminCall(transport, { method: "POST", path: `/v1/clients/${clientId}/api-keys`, key: adminKey, body: {} }, 201);
    const { key } = issuedKeySchema.parse(body);
    if (key !== null) return key;
  }
  throw new Error(`POST /v1/clients/${clientId}/api-keys: every answer was a replay without the key`);
}

/** The body of an admin call that must end in `expectedStatus`; a POST gets a fresh Idempotency-Key. */
async function adminCall(transport: Transport, call: ApiCall, expectedStatus: number): Promise<unknown> {
  const idempotencyKey = call.method === "POST" ? transport.random.uuid() : undefined;
  const result = await callWithRetries(transport, { ...call, idempotencyKey });
  const what = `${call.method} ${call.path}`;
  if (result.gaveUp) throw new Error(`${what}: gave up after ${result.attempts} attempts`);
  const { status, body } = result.response;
  if (status !== expectedStatus) throw new Error(`${what} answered ${status} ${problemCodeOf(body) ?? ""}`.trimEnd());
  return body;
}

// ---------------------------------------------------------------------------------------------
// The model of what each client has approved

/** An approved authorization (what is left to capture) or sale or capture (what is left to refund). */
interface Approved {
  amount: number;
  remaining: number;
}
/** What the workload believes; shared by the users of one client, so they race on its payments. */
interface ClientModel {
  /** Removed once fully captured or voided. */
  authorizations: Map<string, Approved>;
  /** Sales and captures, removed once fully refunded or voided. */
  payments: Map<string, Approved>;
  /** Every transaction answered, whatever its status, for reads. */
  transactionIds: string[];
  /** Stored cards that stand, to pay with. */
  storedCards: Map<string, StoredCard>;
  /** Stored cards whose DELETE was answered 204: a payment naming one must be 404. */
  deletedCards: string[];
}

interface StoredCard {
  userId: string;
  cvc: string;
}

const newModel = (): ClientModel => ({ authorizations: new Map(), payments: new Map(), transactionIds: [], storedCards: new Map(), deletedCards: [] });

/** Updates the model with the final answer of an approved operation. */
function learnApproved(model: ClientModel, operation: Operation, { id, amount, parentTransactionId: parentId }: Transaction): void {
  if (operation === "authorization") model.authorizations.set(id, { amount, remaining: amount });
  if (operation === "sale" || operation === "capture") model.payments.set(id, { amount, remaining: amount });
  if (parentId === null) return;
  if (operation === "capture") takeFrom(model.authorizations, parentId, amount);
  if (operation === "refund") takeFrom(model.payments, parentId, amount);
  if (operation === "void") {
    model.authorizations.delete(parentId);
    model.payments.delete(parentId);
  }
}

function forgetAuthorization(model: ClientModel, parentId: unknown): void {
  if (typeof parentId === "string") model.authorizations.delete(parentId);
}

function takeFrom(approved: Map<string, Approved>, id: string, amount: number): void {
  const entry = approved.get(id);
  if (!entry) return;
  entry.remaining -= amount;
  if (entry.remaining <= 0) approved.delete(id);
}

const withRemaining = (approved: Map<string, Approved>) => [...approved].map(([id, { remaining }]) => ({ id, remaining }));
/** Nothing captured or refunded yet: what can still be voided. */
const untouched = (approved: Map<string, Approved>) =>
  [...approved].filter(([, { amount, remaining }]) => remaining === amount).map(([id]) => id);

// ---------------------------------------------------------------------------------------------
// The workload

type Action = Operation | "read" | "history" | "settle" | "delete-payment-method";

const actionWeights: readonly (readonly [Action, number])[] = [
  ["sale", 25],
  ["authorization", 20],
  ["capture", 15],
  ["refund", 12],
  ["void", 8],
  ["read", 12],
  ["history", 8],
  ["settle", 2],
  ["delete-payment-method", 2],
];

/** A root payment names a stored card this often; the rest send the card inline. */
const STORED_CARD_SHARE = 0.5;
/** A client's stored cards are added to until this many stand, then now and then. */
const STORED_CARDS_WANTED = 8;
/** Of the payments with a stored card, this share names one already deleted (expected 404). */
const DELETED_CARD_SHARE = 0.05;

/** Simulator test cards (API.md, Processors and the simulator); an Amex CVC has four digits. */
const cardWeights: readonly (readonly [{ number: string; cvc: string }, number])[] = [
  [{ number: "4242424242424242", cvc: "123" }, 25],
  [{ number: "5555555555554444", cvc: "123" }, 25],
  [{ number: "378282246310005", cvc: "1234" }, 25],
  [{ number: "4000000000000002", cvc: "123" }, 5], // declined
  [{ number: "4000000000009995", cvc: "123" }, 5], // insufficient funds
  [{ number: "4000000000000119", cvc: "123" }, 5], // processor error
  [{ number: "4000000000000408", cvc: "123" }, 5], // no answer in time, approved when asked later
  [{ number: "4000000000000424", cvc: "123" }, 5], // no answer in time, "not found" twice, then approved
];

function pickWeighted<T>(random: Random, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random.int(1, total);
  for (const [item, weight] of weighted) {
    roll -= weight;
    if (roll <= 0) return item;
  }
  throw new Error("weights must be positive");
}

/** What every virtual user shares. */
interface Run {
  clients: readonly WorkloadClient[];
  adminKey: string;
  models: Map<string, ClientModel>;
  answers: Answer[];
  /** Every card stored, its deletion included. */
  paymentMethods: StoredPaymentMethod[];
  /** Stores of a card whose client gave up: sent again under their keys once the load is over. */
  gaveUpStores: StoreRequest[];
  stats: WorkloadStats;
  onAnswer: (answer: Answer) => void;
}

/** A card to store in the vault, under one Idempotency-Key. */
interface StoreRequest {
  client: WorkloadClient;
  card: { number: string; cvc: string };
  userId: string;
  call: ApiCall;
}

/** One virtual user: its own random stream and one request at a time. */
interface User {
  run: Run;
  random: Random;
  transport: Transport;
}

/** A POST that carries a transaction, as one logical operation. */
interface OperationRequest {
  client: WorkloadClient;
  operation: Operation;
  body: Record<string, unknown>;
  reference: string | null;
}

export async function runWorkload(
  options: WorkloadOptions,
): Promise<{ answers: Answer[]; stats: WorkloadStats; paymentMethods: StoredPaymentMethod[] }> {
  const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const agent = createAgent(attemptTimeoutMs);
  const run: Run = {
    clients: options.clients,
    adminKey: options.adminKey,
    models: new Map(options.clients.map((client) => [client.clientId, newModel()])),
    answers: [],
    paymentMethods: [],
    gaveUpStores: [],
    stats: { outcomes: new Map(), retries: 0, gaveUp: 0 },
    onAnswer: options.onAnswer ?? (() => {}),
  };
  // A user that fails (a bug here) stops the others too, rather than surfacing only at the end.
  const failed = new AbortController();
  const stop = AbortSignal.any([options.signal, failed.signal]);
  const transportFor = (random: Random): Transport => ({
    agent,
    baseUrls: options.baseUrls,
    random,
    retryBudgetMs: options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_MS,
    attemptTimeoutMs,
  });
  const users = Array.from({ length: options.users }, (_, index) => {
    const random = options.random.fork(`user-${index + 1}`);
    return runUser({ run, random, transport: transportFor(random) }, stop).catch((error: unknown) => {
      failed.abort();
      throw error;
    });
  });
  try {
    const settled = await Promise.allSettled(users);
    const failure = settled.find((result) => result.status === "rejected");
    if (failure) throw failure.reason;
    await storeGaveUpCardsAgain(run, transportFor(options.random.fork("later")));
  } finally {
    await agent.close();
  }
  return { answers: run.answers, stats: run.stats, paymentMethods: run.paymentMethods };
}

async function runUser(user: User, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const client = user.random.pick(user.run.clients);
    await perform(user, client, pickWeighted(user.random, actionWeights));
  }
}

/** Follow-ups and reads fall back to a sale when the client has nothing they could apply to. */
async function perform(user: User, client: WorkloadClient, action: Action): Promise<void> {
  const model = modelOf(user.run, client);
  const { random } = user;
  switch (action) {
    case "sale":
    case "authorization":
      return pay(user, client, action);
    case "capture": {
      const target = withRemaining(model.authorizations);
      if (target.length === 0) return pay(user, client, "sale");
      const { id, remaining } = random.pick(target);
      // Now and then the last capture the merchant means to make: the rest is released with it.
      const final = random.chance(0.25) ? { final: true } : {};
      return send(user, { client, operation: "capture", body: { ...withOptionalAmount(random, id, remaining), ...final }, reference: null });
    }
    case "refund": {
      const target = withRemaining(model.payments);
      if (target.length === 0) return pay(user, client, "sale");
      const { id, remaining } = random.pick(target);
      return send(user, { client, operation: "refund", body: withOptionalAmount(random, id, remaining), reference: null });
    }
    case "void": {
      // An authorization with something left to capture, partly captured or not: a void releases the rest.
      const target = [...model.authorizations.keys(), ...untouched(model.payments)];
      if (target.length === 0) return pay(user, client, "sale");
      return send(user, { client, operation: "void", body: { transactionId: random.pick(target) }, reference: null });
    }
    case "read":
      if (model.transactionIds.length === 0) return pay(user, client, "sale");
      return readTransaction(user, client, random.pick(model.transactionIds));
    case "history":
      return readHistory(user, client);
    case "settle":
      return settle(user, client, random.pick(processors));
    case "delete-payment-method":
      if (model.storedCards.size === 0) return pay(user, client, "sale");
      return deletePaymentMethod(user, client, random.pick([...model.storedCards.keys()]));
  }
}

/** An operator closes a host configuration's settlement batch by hand (201, or 409 when nothing waits). */
async function settle(user: User, client: WorkloadClient, processor: Processor): Promise<void> {
  const path = `/v1/host-configurations/${processor}/${client.hostConfigurationIds[processor]}/settle`;
  const call: ApiCall = { method: "POST", path, key: user.run.adminKey, body: {}, idempotencyKey: user.random.uuid() };
  countCall(user.run.stats, "settle", await callWithRetries(user.transport, call));
}

function modelOf(run: Run, client: WorkloadClient): ClientModel {
  const model = run.models.get(client.clientId);
  if (!model) throw new Error(`no model for client ${client.clientId}`);
  return model;
}

/** An authorization or sale, with the card inline or, for a share of them, a stored one. */
async function pay(user: User, client: WorkloadClient, operation: "sale" | "authorization"): Promise<void> {
  const { random } = user;
  const processor = random.pick(processors);
  const reference = `chaos-${random.uuid()}`;
  const payment = {
    processor,
    amount: random.int(100, 5000),
    currency: "USD",
    reference,
    hostConfigurationId: client.hostConfigurationIds[processor],
  };
  const card = pickWeighted(random, cardWeights);
  const userId = `user-${random.int(1, 20)}`;
  const stored = random.chance(STORED_CARD_SHARE) ? await storedCardToPayWith(user, client, card, userId) : undefined;
  const body = stored ? { ...payment, ...stored } : { ...payment, card: { ...card, expMonth: 12, expYear: 2030 }, userId };
  return send(user, { client, operation, body, reference });
}

/**
 * The `paymentMethodId` (with the `userId` it was stored for and now and then its CVC) of one of
 * the client's stored cards, `card` stored first while few stand; now and then a deleted one.
 * Undefined when storing did not succeed: the payment sends its card inline.
 */
async function storedCardToPayWith(
  user: User,
  client: WorkloadClient,
  card: { number: string; cvc: string },
  userId: string,
): Promise<{ paymentMethodId: string; userId: string; cvc?: string } | undefined> {
  const { random } = user;
  const model = modelOf(user.run, client);
  if (model.deletedCards.length > 0 && random.chance(DELETED_CARD_SHARE)) return { paymentMethodId: random.pick(model.deletedCards), userId };
  const storeNew = model.storedCards.size < STORED_CARDS_WANTED || random.chance(0.1);
  const paymentMethodId = storeNew ? await storeCard(user, client, card, userId) : random.pick([...model.storedCards.keys()]);
  const stored = paymentMethodId === undefined ? undefined : model.storedCards.get(paymentMethodId);
  if (paymentMethodId === undefined || !stored) return undefined;
  return { paymentMethodId, userId: stored.userId, ...(random.chance(0.5) ? { cvc: stored.cvc } : {}) };
}

/** Stores `card` in the vault under one Idempotency-Key, retried; its id, or undefined when that did not succeed. */
async function storeCard(user: User, client: WorkloadClient, card: { number: string; cvc: string }, userId: string): Promise<string | undefined> {
  const body = { card: { number: card.number, expMonth: 12, expYear: 2030 }, userId };
  const store: StoreRequest = { client, card, userId, call: { method: "POST", path: "/v1/payment-methods", key: client.key, body, idempotencyKey: user.random.uuid() } };
  const result = await callWithRetries(user.transport, store.call);
  countCall(user.run.stats, "store-payment-method", result);
  if (result.gaveUp) user.run.gaveUpStores.push(store);
  const id = storedId(user.run, store, result);
  if (id !== undefined) modelOf(user.run, client).storedCards.set(id, { userId, cvc: card.cvc });
  return id;
}

/**
 * Sends again, under its key, each store whose client gave up amid the faults, as a careful
 * integrator does once the service is back: the key's one payment method is made or found then,
 * and the key gets its answer. No payment uses it: the load is over.
 */
async function storeGaveUpCardsAgain(run: Run, transport: Transport): Promise<void> {
  for (const store of run.gaveUpStores) {
    const result = await callWithRetries(transport, store.call);
    countCall(run.stats, "store-payment-method again", result);
    storedId(run, store, result);
  }
}

/** The id of the payment method a store's call made, recorded among the run's; undefined when it made none. */
function storedId(run: Run, { client, card }: StoreRequest, result: CallResult): string | undefined {
  const created = !result.gaveUp && result.response.status === 201 ? createdSchema.safeParse(result.response.body).data : undefined;
  if (!created) return undefined;
  run.paymentMethods.push({ clientId: client.clientId, id: created.id, last4: card.number.slice(-4), deletedAt: null });
  return created.id;
}

/**
 * Deletes a stored card: no one pays with it from the start. Once answered 204 the payments that
 * name it are expected to be 404; a deletion whose answer never came claims nothing.
 */
async function deletePaymentMethod(user: User, client: WorkloadClient, paymentMethodId: string): Promise<void> {
  const model = modelOf(user.run, client);
  model.storedCards.delete(paymentMethodId);
  const result = await callWithRetries(user.transport, { method: "DELETE", path: `/v1/payment-methods/${paymentMethodId}`, key: client.key });
  countCall(user.run.stats, "delete-payment-method", result);
  if (result.gaveUp || result.response.status !== 204) return;
  model.deletedCards.push(paymentMethodId);
  const record = user.run.paymentMethods.find((paymentMethod) => paymentMethod.id === paymentMethodId);
  if (record) record.deletedAt = new Date().toISOString();
}

/** Counts a call that carries no transaction: its retries, whether it gave up, and its outcome. */
function countCall(stats: WorkloadStats, what: string, result: CallResult): void {
  stats.retries += result.attempts - 1;
  if (result.gaveUp) stats.gaveUp += 1;
  count(stats, `${what} ${result.gaveUp ? "gave_up" : result.response.status < 300 ? String(result.response.status) : outcomeOf(result.response)}`);
}

/** A partial amount (1..remaining), or now and then none: the service takes all that remains. */
function withOptionalAmount(random: Random, transactionId: string, remaining: number): Record<string, unknown> {
  return random.chance(0.2) ? { transactionId } : { transactionId, amount: random.int(1, remaining) };
}

/** One logical operation: retried under one Idempotency-Key; every transaction answered is recorded. */
async function send(user: User, { client, operation, body, reference }: OperationRequest): Promise<void> {
  const { run } = user;
  const idempotencyKey = user.random.uuid();
  const paymentMethodId = typeof body.paymentMethodId === "string" ? body.paymentMethodId : null;
  const sentAt = new Date().toISOString();
  const call: ApiCall = { method: "POST", path: `/v1/transactions/${operation}`, key: client.key, body, idempotencyKey };
  const result = await callWithRetries(user.transport, call, (response) => {
    const transaction = transactionOf(response);
    if (transaction) record(run, { client, operation, idempotencyKey, reference, paymentMethodId, sentAt }, response.status, transaction);
  });
  run.stats.retries += result.attempts - 1;
  if (result.gaveUp) run.stats.gaveUp += 1;
  count(run.stats, `${operation} ${result.gaveUp ? "gave_up" : outcomeOf(result.response)}`);
  const model = modelOf(run, client);
  const final = result.response && transactionOf(result.response);
  if (!final) {
    // An authorization that takes no more (expired, or voided meanwhile): the merchant stops trying it.
    if (!result.gaveUp && problemCodeOf(result.response.body) === "invalid_transaction_state") forgetAuthorization(model, body.transactionId);
    return;
  }
  model.transactionIds.push(final.id);
  if (final.status === "approved") learnApproved(model, operation, final);
  if (final.status === "approved" && body.final === true) forgetAuthorization(model, body.transactionId);
}

function record(
  run: Run,
  sent: {
    client: WorkloadClient;
    operation: Operation;
    idempotencyKey: string;
    reference: string | null;
    paymentMethodId: string | null;
    sentAt: string;
  },
  httpStatus: number,
  transaction: Transaction,
): void {
  const answer: Answer = {
    clientId: sent.client.clientId,
    idempotencyKey: sent.idempotencyKey,
    operation: sent.operation,
    httpStatus,
    transactionId: transaction.id,
    status: transaction.status,
    amount: transaction.amount,
    parentTransactionId: transaction.parentTransactionId,
    reference: sent.reference,
    paymentMethodId: sent.paymentMethodId,
    sentAt: sent.sentAt,
    at: new Date().toISOString(),
  };
  run.answers.push(answer);
  run.onAnswer(answer);
}

/** The status, with the problem code when no transaction came with it (`409 invalid_transaction_state`). */
function outcomeOf(response: ApiResponse): string {
  if (transactionOf(response)) return String(response.status);
  return `${response.status} ${problemCodeOf(response.body) ?? "unexpected_body"}`;
}

function count(stats: WorkloadStats, outcome: string): void {
  stats.outcomes.set(outcome, (stats.outcomes.get(outcome) ?? 0) + 1);
}

/** A 404 is possible for a transaction answered on another instance: read models lag. */
async function readTransaction(user: User, client: WorkloadClient, transactionId: string): Promise<void> {
  const result = await callWithRetries(user.transport, { method: "GET", path: `/v1/transactions/${transactionId}`, key: client.key });
  count(user.run.stats, `read ${result.gaveUp ? "gave_up" : result.response.status}`);
}

async function readHistory(user: User, client: WorkloadClient): Promise<void> {
  let cursor: string | null = null;
  for (let page = 1; page <= HISTORY_MAX_PAGES; page += 1) {
    const path = `/v1/transactions?limit=${HISTORY_PAGE_SIZE}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
    const result = await callWithRetries(user.transport, { method: "GET", path, key: client.key });
    if (result.gaveUp || result.response.status !== 200) {
      count(user.run.stats, `history ${result.gaveUp ? "gave_up" : result.response.status}`);
      return;
    }
    const parsed = historyPageSchema.safeParse(result.response.body);
    count(user.run.stats, parsed.success ? "history 200" : "history 200 unexpected_body");
    cursor = parsed.data?.nextCursor ?? null;
    if (cursor === null) return;
  }
}
