/**
 * `bench:capacity`'s webhook receiver, a process of its own: answers 200 as soon as a delivery's
 * body has arrived and keeps its lag, the time from the event (the message's `createdAt`, the
 * event's time) to its arrival here. "collect" on the IPC channel sends and forgets what it kept.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const message = z.object({ createdAt: z.iso.datetime() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

let lagsMs: number[] = [];
let received = 0;

const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
  request.on("end", () => {
    const arrivedAt = Date.now();
    response.end();
    received += 1;
    const parsed = message.safeParse(parseJson(body));
    if (parsed.success) lagsMs.push(arrivedAt - Date.parse(parsed.data.createdAt));
  });
});
server.keepAliveTimeout = 60_000;

process.on("message", (request) => {
  if (request !== "collect") return;
  process.send?.({ lagsMs, received });
  lagsMs = [];
  received = 0;
});
process.once("disconnect", () => process.exit(0));
process.once("SIGTERM", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  console.log(`receiver: http://127.0.0.1:${port}`);
});
