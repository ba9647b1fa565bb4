/**
 * A merchant's mix of operations: sales with the card inline and with a stored card,
 * authorizations followed by partial and final captures or by voids, refunds of sales, and
 * history reads. Follow-ups take a transaction this mix saw approved; when there is none yet,
 * the arrival is an inline sale instead (counted as a stand-in).
 */
import { randomInt } from "node:crypto";
import { z } from "zod";
import type { HostConfigurationView } from "../../src/domain/host-configurations/decider.ts";
import { APPROVING_CARD_BODY, createPayingClient } from "../http-load.ts";
import type { Operation } from "./load.ts";

/** Shares of the arrivals, in percent. */
export const MIX = {
  sale_inline: 25,
  sale_stored: 15,
  authorization: 15,
  capture_partial: 8,
  capture_final: 8,
  refund: 7,
  void: 5,
  history: 17,
} as const;
type Kind = keyof typeof MIX;

export interface Merchant {
  key: string;
  hostConfiguration: HostConfigurationView;
  paymentMethods: { id: string; userId: string }[];
}

const created = z.object({ id: z.string() });

/** A client with a processor_a host configuration, stored cards, and a webhook endpoint for every event at `receiverUrl`. */
export async function setUpMerchant(baseUrl: string, receiverUrl: string, paymentMethodCount: number): Promise<Merchant> {
  const { key, hostConfiguration } = await createPayingClient(baseUrl, "Capacity bench merchant");
  const asMerchant = async (path: string, body: object) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return created.parse(await response.json()).id;
  };
  await asMerchant("/v1/webhook-endpoints", { url: `${receiverUrl}/hooks`, events: ["*"] });
  const paymentMethods = [];
  for (let index = 0; index < paymentMethodCount; index += 1) {
    const userId = `user_${index}`;
    const { number, expMonth, expYear } = APPROVING_CARD_BODY;
    paymentMethods.push({ id: await asMerchant("/v1/payment-methods", { card: { number, expMonth, expYear }, userId }), userId });
  }
  return { key, hostConfiguration, paymentMethods };
}

const approved = z.object({ id: z.string(), status: z.literal("approved"), amount: z.number().int() });

interface Approved {
  id: string;
  amount: number;
}

/** Transactions waiting for a follow-up; the oldest go once it holds this many. */
const POOL_LIMIT = 5_000;

class Pool {
  private readonly items: Approved[] = [];
  add(item: Approved) {
    this.items.push(item);
    if (this.items.length > POOL_LIMIT) this.items.shift();
  }
  /** The newest, taken out so that no other arrival follows it up too. */
  take(): Approved | undefined {
    return this.items.pop();
  }
}

export function merchantMix(merchant: Merchant) {
  const authorized = new Pool();
  const partiallyCaptured = new Pool();
  const sales = new Pool();
  const standIns = new Map<Kind, number>();
  const kinds = Object.entries(MIX) as [Kind, number][];
  const total = kinds.reduce((sum, [, weight]) => sum + weight, 0);

  const keepIfApproved = (pool: Pool) => (status: number, body: unknown) => {
    const parsed = approved.safeParse(body);
    if (status === 201 && parsed.success) pool.add(parsed.data);
  };
  const payment = () => ({ processor: "processor_a", amount: randomInt(100, 10_000), currency: "USD" });
  const saleInline = (kind: string = "sale_inline"): Operation => ({
    kind,
    method: "POST",
    path: "/v1/transactions/sale",
    body: { ...payment(), userId: `user_${randomInt(1, 1_000)}`, card: APPROVING_CARD_BODY },
    answered: keepIfApproved(sales),
  });
  /** A follow-up of a transaction from `pool`, or an inline sale standing in when it is empty. */
  const followUp = (kind: Kind, pool: Pool, operation: (parent: Approved) => Operation): Operation => {
    const parent = pool.take();
    if (parent) return operation(parent);
    standIns.set(kind, (standIns.get(kind) ?? 0) + 1);
    return saleInline(`sale_inline (for ${kind})`);
  };
  const post = (kind: Kind, path: string, body: object, answered?: Operation["answered"]): Operation => ({ kind, method: "POST", path, body, answered });

  const operations: Record<Kind, () => Operation> = {
    sale_inline: () => saleInline(),
    sale_stored: () => {
      const method = merchant.paymentMethods[randomInt(0, merchant.paymentMethods.length)];
      if (!method) return saleInline();
      const body = { ...payment(), userId: method.userId, paymentMethodId: method.id, cvc: APPROVING_CARD_BODY.cvc };
      return post("sale_stored", "/v1/transactions/sale", body, keepIfApproved(sales));
    },
    authorization: () =>
      post("authorization", "/v1/transactions/authorization", { ...payment(), userId: `user_${randomInt(1, 1_000)}`, card: APPROVING_CARD_BODY }, keepIfApproved(authorized)),
    capture_partial: () =>
      followUp("capture_partial", authorized, (parent) =>
        post("capture_partial", "/v1/transactions/capture", { transactionId: parent.id, amount: Math.floor(parent.amount / 3), final: false }, (status) => {
          if (status === 201) partiallyCaptured.add(parent);
        }),
      ),
    capture_final: () =>
      followUp("capture_final", partiallyCaptured, (parent) => post("capture_final", "/v1/transactions/capture", { transactionId: parent.id, final: true })),
    refund: () => followUp("refund", sales, (parent) => post("refund", "/v1/transactions/refund", { transactionId: parent.id, amount: Math.floor(parent.amount / 2) })),
    void: () => followUp("void", authorized, (parent) => post("void", "/v1/transactions/void", { transactionId: parent.id })),
    history: () => ({
      kind: "history",
      method: "GET",
      path: randomInt(0, 2) === 0 ? "/v1/transactions?limit=20" : `/v1/transactions?limit=20&userId=user_${randomInt(1, 1_000)}`,
    }),
  };

  return {
    next(): Operation {
      let draw = randomInt(0, total);
      for (const [kind, weight] of kinds) {
        if (draw < weight) return operations[kind]();
        draw -= weight;
      }
      return saleInline();
    },
    /** Arrivals that became inline sales because no transaction was there to follow up, by kind. */
    standIns: () => new Map(standIns),
  };
}

