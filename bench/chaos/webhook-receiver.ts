import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import type { Random } from "./random.ts";

/** One message as the merchant's receiver got it. */
export interface ReceivedWebhook {
  clientId: string;
  webhookId: string;
  type: string;
  /** The transaction or batch the message is about. */
  subjectId: string;
  /** Whether its Standard Webhooks signature verified with the endpoint's secret. */
  signed: boolean;
  /** The status the receiver answered: 2xx counts as delivered. */
  answered: number;
  at: number;
}

const bodySchema = z.object({
  id: z.string(),
  type: z.string(),
  data: z.union([
    z.object({ transaction: z.object({ id: z.string() }) }),
    z.object({ settlement: z.object({ id: z.string() }) }),
  ]),
});

export interface WebhookReceiver {
  url: string;
  /** Where the client's endpoint points. */
  urlFor(clientId: string): string;
  /** The endpoint's secret, which verifies what arrives for the client. */
  trust(clientId: string, secret: string): void;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * The merchants' side: a receiver that verifies each signature with an independent library and,
 * as real receivers do, sometimes fails (answers 500 to a share of requests).
 */
export async function startWebhookReceiver(random: Random, failureShare = 0.1): Promise<WebhookReceiver> {
  const verifiers = new Map<string, Webhook>();
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const clientId = request.url?.split("/").at(-1) ?? "";
      const body = Buffer.concat(chunks).toString("utf8");
      const answered = random.chance(failureShare) ? 500 : 200;
      const parsed = bodySchema.safeParse(JSON.parse(body));
      if (parsed.success) {
        const { data } = parsed;
        received.push({
          clientId,
          webhookId: data.id,
          type: data.type,
          subjectId: "transaction" in data.data ? data.data.transaction.id : data.data.settlement.id,
          signed: verifies(verifiers.get(clientId), body, request.headers),
          answered,
          at: Date.now(),
        });
      }
      response.writeHead(parsed.success ? answered : 400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    urlFor: (clientId) => `${url}/hooks/${clientId}`,
    trust: (clientId, secret) => void verifiers.set(clientId, new Webhook(secret)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function verifies(verifier: Webhook | undefined, body: string, headers: IncomingHttpHeaders): boolean {
  if (!verifier) return false;
  try {
    verifier.verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    });
    return true;
  } catch {
    return false;
  }
}
