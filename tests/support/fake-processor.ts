import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake processor_a answers; `unknown` is an HTTP answer that proves nothing either way. */
export type FakeAnswer = "approved" | "refused" | "not_found" | "unknown";

export interface FakeCall {
  kind: "submit" | "inquiry";
  /** The operation's path for a submit (`sale`, `void`...). */
  operation: string;
  transactionId: string;
  /** A follow-up's parent, as our id. */
  parentId?: string;
}

export interface FakeProcessor {
  url: string;
  calls: FakeCall[];
  close(): Promise<void>;
}

/**
 * A processor_a that answers as the test scripts it: `submit` per operation and `inquiry` per
 * question asked (the nth inquiry about a transaction gets `inquiry(n, id)`, from 1). Every call is kept.
 */
export async function startFakeProcessor(script: {
  submit: (operation: string) => FakeAnswer;
  inquiry: (nth: number, transactionId: string) => FakeAnswer;
}): Promise<FakeProcessor> {
  const calls: FakeCall[] = [];
  const answer = (kind: FakeAnswer, reference: string) => {
    switch (kind) {
      case "approved":
        return { status: 200, body: { responseCode: "00", responseText: "Approved", approvalCode: "A1B2C3", retrievalReferenceNumber: reference } };
      case "refused":
        return { status: 200, body: { responseCode: "12", responseText: "Invalid transaction", retrievalReferenceNumber: reference } };
      case "not_found":
        return { status: 404, body: { responseCode: "25", responseText: "Unable to locate record" } };
      case "unknown":
        // A gateway that timed out waiting for the processor: it may have acted.
        return { status: 504, body: { error: "gateway timeout" } };
    }
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    const inquiry = url.pathname.match(/^\/processor_a\/v1\/transactions\/([^/]+)$/);
    let reply;
    if (request.method === "GET" && inquiry) {
      const transactionId = decodeURIComponent(inquiry[1]!);
      calls.push({ kind: "inquiry", operation: "inquiry", transactionId });
      const nth = calls.filter((call) => call.kind === "inquiry" && call.transactionId === transactionId).length;
      reply = answer(script.inquiry(nth, transactionId), `ref-${transactionId}`);
    } else {
      const operation = url.pathname.split("/").at(-1) ?? "";
      const body = (await readJson(request)) as { transactionReference: string; originalTransactionReference?: string };
      calls.push({
        kind: "submit",
        operation,
        transactionId: body.transactionReference,
        ...(body.originalTransactionReference ? { parentId: body.originalTransactionReference } : {}),
      });
      reply = answer(script.submit(operation), `ref-${body.transactionReference}`);
    }
    response.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}
