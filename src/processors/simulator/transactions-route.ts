import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { parseOrReject } from "./context.ts";
import type { Ledger } from "./ledger.ts";

/**
 * `GET /simulator/transactions[?approved=true|false]`: what the simulated processors answered,
 * oldest first, as `{ data: [...] }`: the processor-side truth reconciliation compares the ledger with.
 */
const query = z.object({ approved: z.enum(["true", "false"]).optional() }).strict();

export function registerTransactionList(app: FastifyInstance, ledger: Ledger): void {
  app.get("/simulator/transactions", async (request, reply) => {
    const parsed = parseOrReject(query, request.query, reply);
    if (!parsed) return reply;
    const { approved } = parsed;
    return { data: ledger.transactions(approved === undefined ? {} : { approved: approved === "true" }) };
  });
}
