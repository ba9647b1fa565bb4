import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { entryKinds, journalAccounts, normalSide, trialBalanceOf } from "../../domain/journal/index.ts";
import { processors } from "../../domain/host-configurations/schemas.ts";
import { currencySchema } from "../../domain/money.ts";
import { OverloadedError } from "../../overload.ts";
import { journalProjection } from "../../projections/journal/journal-projection.ts";
import { journalBalances, journalEntries } from "../../projections/journal/queries.ts";
import { waitUntilApplied } from "../../projections/lag.ts";
import { type Principal, principalOf } from "../auth.ts";
import { invalidCursor, listQuery, lowerBoundOf, pageOf, timestamp, upperBoundOf } from "../pagination.ts";
import type { RouteDependencies } from "./dependencies.ts";

const tags = ["journal"];
const account = z.enum(journalAccounts);

const lineSchema = z.object({
  account,
  processor: z.enum(processors),
  currency: z.string(),
  debit: z.number().int(),
  credit: z.number().int(),
});

const entrySchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(entryKinds).describe("The money movement that posted it."),
    clientId: z.uuid(),
    processor: z.enum(processors),
    currency: z.string(),
    paymentId: z.uuid().nullable().describe("The payment (its authorization's or sale's id) whose event posted it; null for a batch's difference."),
    transactionId: z.uuid().nullable().describe("The transaction whose event posted it; null for a batch's difference."),
    settlementId: z.uuid().nullable().describe("The batch that settled the transaction, or whose close posted the difference."),
    occurredAt: z.string().describe("When its event happened: what `asOf` compares."),
    eventId: z.uuid(),
    eventType: z.string(),
    eventPosition: z.string().describe("The event's position in the log (`GET /v1/events`)."),
    lines: z.array(lineSchema).describe("Debits equal credits, in the entry's currency."),
  })
  .meta({ id: "JournalEntry" });

const balanceSchema = z
  .object({
    clientId: z.uuid(),
    account,
    processor: z.enum(processors),
    currency: z.string(),
    debit: z.number().int().describe("Every debit posted to it."),
    credit: z.number().int().describe("Every credit posted to it."),
    normalSide: z.enum(["debit", "credit"]),
    balance: z.number().int().describe("Debits less credits for a debit account, credits less debits for a credit account."),
  })
  .meta({ id: "JournalBalance" });

const trialBalanceSchema = z
  .object({
    currency: z.string(),
    debit: z.number().int().describe("The accounts' balances in the debit column."),
    credit: z.number().int().describe("The accounts' balances in the credit column."),
    balanced: z.boolean().describe("Debits equal credits: always, unless the journal is broken."),
    accounts: z.array(z.object({ account, processor: z.enum(processors), debit: z.number().int(), credit: z.number().int() })),
  })
  .meta({ id: "TrialBalance" });

const clientFilter = { clientId: z.uuid().optional().describe("Admin keys: one client's books. Client keys see their own.") };
const asOf = timestamp.optional().describe("Only entries that happened at or before this moment; a date alone means to the end of that UTC day. Now by default.");

const entriesQuery = listQuery.extend({
  ...clientFilter,
  processor: z.enum(processors).optional(),
  currency: currencySchema.optional(),
  account: account.optional().describe("Entries with a line on this account."),
  paymentId: z.uuid().optional(),
  transactionId: z.uuid().optional(),
  settlementId: z.uuid().optional(),
  from: timestamp.optional().describe("Happened at or after; a date alone means from the start of that UTC day."),
  to: timestamp.optional().describe("Happened at or before; a date alone means to the end of that UTC day."),
});

/** How long a read waits for the journal to hold every event the log held when it was asked. */
const CATCH_UP_WAIT_MS = 5_000;

/** Opaque cursor: the last entry's event position and id. */
const encodeEntryCursor = (position: string, entryId: string) => Buffer.from(`${position}|${entryId}`, "utf8").toString("base64url");

function decodeEntryCursor(cursor: string): { position: string; entryId: string } {
  const [position = "", entryId = "", ...rest] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (rest.length > 0 || !/^\d{1,19}$/.test(position) || !z.uuid().safeParse(entryId).success) throw invalidCursor();
  return { position, entryId };
}

/** Whose books a request reads: a client's own; an admin's choice, or everyone's. `null`: another client's, which a client key never sees. */
function clientOf(principal: Principal, askedFor: string | undefined): string | undefined | null {
  if (principal.role === "admin") return askedFor;
  return askedFor === undefined || askedFor === principal.clientId ? principal.clientId : null;
}

/**
 * The journal (API.md, Journal): its entries, every account's balance and the trial balance, as
 * of any moment. Each read first waits until the journal holds what the log held when asked, so
 * a payment answered before, on any instance, is in it.
 */
export const journalRoutes: FastifyPluginAsyncZod<RouteDependencies> = async (app, deps) => {
  const { db, store } = deps;
  const caughtUp = async () => {
    if (!(await waitUntilApplied(db, store, journalProjection, CATCH_UP_WAIT_MS))) {
      throw new OverloadedError(`The journal is more than ${CATCH_UP_WAIT_MS / 1000} s behind the log.`);
    }
  };

  app.get(
    "/journal/entries",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "listJournalEntries",
        summary: "Journal entries, newest first, filtered",
        description: "Each entry balanced in one currency and naming the event that posted it. Client keys see their own; admin keys everyone's, or one client's with `clientId`.",
        querystring: entriesQuery,
        response: { 200: z.object({ data: z.array(entrySchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { clientId: askedFor, limit, cursor, from, to, ...filter } = request.query;
      const clientId = clientOf(principalOf(request), askedFor);
      if (clientId === null) return { data: [], nextCursor: null };
      const after = cursor === undefined ? undefined : decodeEntryCursor(cursor);
      await caughtUp();
      const rows = await journalEntries(
        db,
        { ...filter, clientId, from: from === undefined ? undefined : lowerBoundOf(from), to: to === undefined ? undefined : upperBoundOf(to) },
        after,
        limit,
      );
      return pageOf(rows, limit, (row) => encodeEntryCursor(row.eventPosition, row.id));
    },
  );

  app.get(
    "/journal/balances",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "getJournalBalances",
        summary: "Every account's balance, per client, processor and currency, as of a moment",
        querystring: z.strictObject({ ...clientFilter, asOf, currency: currencySchema.optional(), processor: z.enum(processors).optional() }),
        response: { 200: z.object({ asOf: z.string(), data: z.array(balanceSchema) }) },
      },
    },
    async (request) => {
      const { clientId: askedFor, asOf: asked, currency, processor } = request.query;
      const at = asked === undefined ? deps.now() : upperBoundOf(asked);
      const clientId = clientOf(principalOf(request), askedFor);
      if (clientId === null) return { asOf: at.toISOString(), data: [] };
      await caughtUp();
      const balances = await journalBalances(db, { clientId, currency, processor, asOf: at });
      return { asOf: at.toISOString(), data: balances.map((balance) => ({ ...balance, normalSide: normalSide[balance.account] })) };
    },
  );

  app.get(
    "/journal/trial-balance",
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: "getJournalTrialBalance",
        summary: "Debits and credits per currency, as of a moment: they are equal",
        description: "Each account's balance in the debit or the credit column, per currency, added up over the clients the key sees (admin: every client, or one with `clientId`).",
        querystring: z.strictObject({ ...clientFilter, asOf }),
        response: { 200: z.object({ asOf: z.string(), data: z.array(trialBalanceSchema) }) },
      },
    },
    async (request) => {
      const { clientId: askedFor, asOf: asked } = request.query;
      const at = asked === undefined ? deps.now() : upperBoundOf(asked);
      const clientId = clientOf(principalOf(request), askedFor);
      if (clientId === null) return { asOf: at.toISOString(), data: [] };
      await caughtUp();
      return { asOf: at.toISOString(), data: trialBalanceOf(await journalBalances(db, { clientId, asOf: at })) };
    },
  );
};
