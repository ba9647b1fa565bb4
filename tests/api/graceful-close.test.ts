import { once } from "node:events";
import { connect } from "node:net";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { gracefulCloseOptions, registerGracefulClose } from "../../src/api/graceful-close.ts";
import { registerProblemHandling } from "../../src/api/problems.ts";

describe("a request that arrives while the service stops", () => {
  it("is answered 503 problem+json with retry-after and connection: close, and the running one still completes", async () => {
    const app = Fastify(gracefulCloseOptions);
    registerGracefulClose(app, 5_000);
    registerProblemHandling(app);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    app.get("/slow", async () => {
      started();
      await released;
      return { done: true };
    });
    app.get("/other", async () => ({ other: true }));
    const url = new URL(await app.listen({ port: 0, host: "127.0.0.1" }));

    const request = async (path: string) => {
      const socket = connect(Number(url.port), url.hostname);
      await once(socket, "connect");
      let received = "";
      socket.on("data", (chunk) => (received += String(chunk)));
      // The headers' end is sent by `finish`: until then the request is on its way.
      socket.write(`GET ${path} HTTP/1.1\r\nhost: test\r\n`);
      return {
        finish: () => socket.write("\r\n"),
        answer: async () => {
          if (!socket.closed) await once(socket, "close");
          return received;
        },
      };
    };
    const slow = await request("/slow");
    slow.finish();
    await running;
    const late = await request("/other");
    const closing = app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    late.finish();
    const second = await late.answer();
    release();
    await closing;
    const first = await slow.answer();

    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).toContain('{"done":true}');
    expect(second).toMatch(/^HTTP\/1\.1 503/);
    expect(second).toMatch(/content-type: application\/problem\+json/i);
    expect(second).toMatch(/retry-after: [1-9]\d*\r\n/i);
    expect(second).toMatch(/connection: close/i);
    expect(JSON.parse(second!.slice(second!.indexOf("\r\n\r\n") + 4))).toMatchObject({ status: 503, code: "service_unavailable" });
  });
});
