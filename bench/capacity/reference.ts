/**
 * The reference every step is held against: bench:sales's bare grouped durable sale (its intent
 * inserted, the processor called, its outcome inserted, the inserts grouped across overlapping
 * requests) as a plain fastify route, answering `server-timing` as the service does so that its
 * added latency is measured the same way.
 */
import Fastify from "fastify";
import { z } from "zod";
import type { HostConfigurationView } from "../../src/domain/host-configurations/decider.ts";
import { bareProcessorCall, openBareInserts, sellDurably } from "../bare-durable-sale.ts";

const body = z.object({ amount: z.number().int().positive() });

export async function startReference(databaseUrl: string, simulatorUrl: string, processorTimeoutMs: number, view: HostConfigurationView) {
  const inserts = await openBareInserts(databaseUrl);
  const processorCall = bareProcessorCall(simulatorUrl, processorTimeoutMs, view);
  const app = Fastify({ logger: false });
  app.post("/bare", async (request, reply) => {
    const { amount } = body.parse(request.body);
    let processorMs = 0;
    const { outcome, row } = await sellDurably(inserts.insertGrouped, async (value) => {
      const startedAt = performance.now();
      const answer = await processorCall(value);
      processorMs = performance.now() - startedAt;
      return answer;
    }, amount);
    void reply.header("server-timing", `processor;dur=${processorMs.toFixed(1)}`);
    // A processor that did not answer in time is the service's 504 too.
    return reply.code(outcome.kind === "approved" ? 201 : outcome.kind === "unknown" ? 504 : 502).send(row);
  });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url,
    async close() {
      await app.close();
      await inserts.end();
    },
  };
}
