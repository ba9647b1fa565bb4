import { validBodies } from "./host-configurations.ts";
import type { TestService } from "./service.ts";

export const approvedCard = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" };
const declinedCard = { ...approvedCard, number: "4000000000000002" };

/** The transactions `recordPayments` made, by what they are. */
export interface RecordedPayments {
  clientIds: string[];
  /** Each client's API key id, in the order of `clientIds`. */
  keyIds: string[];
  /** An authorization of 1000 USD, captured 600, of which 200 refunded. */
  authorization: string;
  capture: string;
  refund: string;
  /** A sale of 500 USD, and one declined by the processor. */
  sale: string;
  declinedSale: string;
}

/**
 * Some of everything through the API: two clients with keys and host configurations, an
 * authorization with a capture and a refund, an approved and a declined sale.
 */
export async function recordPayments(api: TestService): Promise<RecordedPayments> {
  const clients = [await api.createClient("Acme"), await api.createClient("Globex")];
  for (const { clientId } of clients) {
    const created = await api.request("POST", "/v1/host-configurations/processor_a", {
      body: { ...validBodies.processor_a, clientId },
    });
    if (created.status !== 201) throw new Error(`host configuration failed: ${created.text}`);
  }
  const [acme, globex] = clients as [(typeof clients)[0], (typeof clients)[0]];
  const pay = async (key: string, path: string, body: Record<string, unknown>, status = 201): Promise<string> => {
    const response = await api.request("POST", `/v1/transactions/${path}`, { key, body });
    if (response.status !== status) throw new Error(`${path} answered ${response.status}: ${response.text}`);
    return status === 201 ? response.body.id : response.body.transaction.id;
  };
  const payment = { processor: "processor_a", currency: "USD", userId: "user_1" };
  const authorization = await pay(acme.key, "authorization", { ...payment, amount: 1000, card: approvedCard });
  const capture = await pay(acme.key, "capture", { transactionId: authorization, amount: 600 });
  const refund = await pay(acme.key, "refund", { transactionId: capture, amount: 200, reason: "damaged" });
  const sale = await pay(globex.key, "sale", { ...payment, amount: 500, card: approvedCard });
  const declinedSale = await pay(globex.key, "sale", { ...payment, amount: 300, card: declinedCard }, 402);
  return {
    clientIds: clients.map((client) => client.clientId),
    keyIds: clients.map((client) => client.keyId),
    authorization, capture, refund, sale, declinedSale };
}
