import { createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProcessorRelay {
  url: string;
  close(): Promise<void>;
}

type RelayedRequest = { method: string; path: string; headers: IncomingHttpHeaders };

/**
 * A processor in front of another: every request is forwarded as it came and answered as the
 * processor behind answered, after `beforeAnswer` ran. Tests use it to make something happen at
 * the one moment that matters: after the processor acted, before the service heard of it; or,
 * with `beforeForward`, before the processor ever saw the request.
 */
export async function startProcessorRelay(
  target: string,
  /** Throwing drops the connection unanswered, as a lost answer. */
  beforeAnswer: (request: RelayedRequest) => Promise<void>,
  /** Throwing drops the connection unanswered without forwarding the request, as a request lost on the way. */
  { beforeForward = async () => {} }: { beforeForward?: (request: RelayedRequest) => Promise<void> } = {},
): Promise<ProcessorRelay> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const relayed = { method: request.method ?? "GET", path: request.url ?? "/", headers: request.headers };
      await beforeForward(relayed);
      const headers = Object.fromEntries(
        Object.entries(request.headers).flatMap(([name, value]) => (typeof value === "string" && name !== "host" && name !== "content-length" ? [[name, value]] : [])),
      );
      const answer = await fetch(`${target}${request.url}`, { method: request.method, headers, body: body.length ? body : undefined });
      const text = await answer.text();
      await beforeAnswer(relayed);
      response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" }).end(text);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
