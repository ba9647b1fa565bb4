import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { BrokenLinkAlarm } from "../../audit/broken-link-alarm.ts";
import { checkpointKeyListSchema, readCheckpointKeys } from "../../audit/checkpoint-keys.ts";
import { type AuditEvent, auditEventSchema, InvalidCursorError, readLogPage, toAuditEvent } from "../../audit/event-log.ts";
import { checkStreamLinks } from "../../audit/link-checks.ts";
import { paymentStreamOf } from "../../audit/payment-stream.ts";
import { awaitOwnPaymentWrites } from "../../projections/transactions/own-writes.ts";
import { readCaughtUp } from "../../projections/transactions/read-caught-up.ts";
import { ownClientOf, principalOf } from "../auth.ts";
import { invalidCursor } from "../pagination.ts";
import { notFound } from "../problems.ts";
import type { RouteDependencies } from "./dependencies.ts";

const logQuery = z
  .strictObject({
    after: z.string().min(1).max(200).optional(),
    /** The list convention's name for the same thing, so generic pagers work too. */
    cursor: z.string().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .refine((query) => query.after === undefined || query.cursor === undefined || query.after === query.cursor, {
    path: ["cursor"],
    message: "give either after or cursor, not two different ones",
  });

export interface AuditRouteDependencies extends RouteDependencies {
  brokenLinks: BrokenLinkAlarm;
}

const brokenLinksField = z
  .number()
  .int()
  .meta({ description: "How many of the events served have a hash-chain link that does not verify (`chain.status` broken): 0 when intact" });

export const auditRoutes: FastifyPluginAsyncZod<AuditRouteDependencies> = async (app, { db, store, readYourWrites, brokenLinks }) => {
  app.get(
    "/transactions/:id/events",
    {
      config: { access: "any" },
      schema: {
        tags: ["audit"],
        operationId: "listTransactionEvents",
        summary: "The event stream a transaction lives in (its payment's), oldest first",
        description:
          "Each event carries its hash-chain link (`chain`), checked against the event before it as it is read: " +
          "a link that does not verify is answered with `chain.status` broken and what was expected and found.",
        params: z.strictObject({ id: z.uuid() }),
        response: { 200: z.object({ streamId: z.string(), events: z.array(auditEventSchema), brokenLinks: brokenLinksField }) },
      },
    },
    async (request) => {
      const ownClient = ownClientOf(principalOf(request));
      await awaitOwnPaymentWrites({ readYourWrites }, ownClient);
      const streamId = await readCaughtUp({ db, store }, () => paymentStreamOf(db, request.params.id, ownClient));
      if (!streamId) throw notFound("transaction");
      const stored = await store.readStream(streamId);
      const checks = checkStreamLinks(stored);
      const events = stored.map((event, index) => toAuditEvent(event, checks[index]!));
      brokenLinks.raise(events);
      return { streamId, events, brokenLinks: countBroken(events) };
    },
  );

  app.get(
    "/events",
    {
      config: { access: "admin" },
      schema: {
        tags: ["audit"],
        operationId: "listEvents",
        summary: "The whole event log in global order, for exports and auditors",
        description:
          "Pass `nextCursor` as `after` (or `cursor`) to resume right after the last event of a page. " +
          "`nextCursor` is null once nothing new was read: keep the last cursor and ask again later for newer events. " +
          "Each event carries its hash-chain link (`chain`), checked against the event before it in its stream as it is read: " +
          "a link that does not verify is answered with `chain.status` broken and what was expected and found.",
        querystring: logQuery,
        response: {
          200: z.object({ data: z.array(auditEventSchema), nextCursor: z.string().nullable(), brokenLinks: brokenLinksField }),
        },
      },
    },
    async (request) => {
      const cursor = request.query.after ?? request.query.cursor ?? null;
      try {
        const page = await readLogPage(store, cursor, request.query.limit);
        brokenLinks.raise(page.events);
        return { data: page.events, nextCursor: page.nextCursor, brokenLinks: countBroken(page.events) };
      } catch (error) {
        if (!(error instanceof InvalidCursorError)) throw error;
        throw invalidCursor(request.query.after === undefined ? "cursor" : "after");
      }
    },
  );

  app.get(
    "/audit/checkpoint-keys",
    {
      config: { access: "any" },
      schema: {
        tags: ["audit"],
        operationId: "listCheckpointKeys",
        summary: "Every public key that signs or signed the service's chain checkpoints, oldest first",
        description:
          "An auditor keeps this list apart from the service and gives it to " +
          "`ledger verify-export --checkpoints <file> --key <this list>`. A rotated key stays listed, so the " +
          "checkpoints it signed still verify. Empty while checkpoints are off (CHECKPOINT_INTERVAL_SECONDS unset).",
        response: { 200: checkpointKeyListSchema },
      },
    },
    async () => ({ keys: await readCheckpointKeys(store) }),
  );
};

const countBroken = (events: readonly AuditEvent[]) => events.filter((event) => event.chain.status === "broken").length;
