import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { issueApiKey, registerClient, revokeApiKey, setLimits } from "../../commands/clients.ts";
import { usageOn } from "../../commands/limits.ts";
import { limitsSchema, utcDay } from "../../domain/limits/limits.ts";
import type { CommandContext } from "../../commands/context.ts";
import { UNKNOWN_KEY_PREFIX } from "../../auth/keys.ts";
import { canSeeClient, principalOf } from "../auth.ts";
import { decodeTimeCursor, encodeTimeCursor, listQuery, pageOf } from "../pagination.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { claimedResourceId } from "../idempotency.ts";
import { ApiProblem, notFound } from "../problems.ts";
import type { RouteDependencies } from "./dependencies.ts";
import { applyClientWrite } from "../../projections/clients/own-writes.ts";
import { apiKeysNewestFirst, clientExists, clientsNewestFirst, findClient } from "../../projections/clients/queries.ts";

const clientIdParams = z.strictObject({ clientId: z.uuid() });

const clientSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    limits: z.array(
      z.object({
        currency: z.string(),
        maxAmountPerTransaction: z.number().int().optional(),
        dailyAmount: z.number().int().optional(),
        dailyCount: z.number().int().optional(),
        today: z.object({ date: z.string(), usedAmount: z.number().int(), usedCount: z.number().int() }),
      }),
    ),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "Client" });

const apiKeyNameSchema = z.string().nullable().describe("What its admin called the key, to tell keys apart; null when unnamed.");

const apiKeySchema = z
  .object({
    id: z.uuid(),
    key: z
      .string()
      .nullable()
      .describe("Shown only in this response; only its hash is stored. A replay of the creation answers null."),
    name: apiKeyNameSchema,
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "ApiKey" });

const listedApiKeySchema = z
  .object({
    id: z.uuid(),
    prefix: z.string().describe("The key's first characters (`ldgr_sk_` and four more), to tell keys apart; never the key."),
    name: apiKeyNameSchema,
    createdAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
    lastUsedAt: z.iso
      .datetime()
      .nullable()
      .describe("When the key last authenticated a request, to within a minute; null until its first use."),
  })
  .meta({ id: "ListedApiKey" });

const callerSchema = z
  .discriminatedUnion("role", [
    z.object({ role: z.literal("admin") }),
    z.object({ role: z.literal("client"), clientId: z.uuid(), keyId: z.uuid() }),
  ])
  .meta({ id: "Caller" });

export const clientRoutes: FastifyPluginAsyncZod<RouteDependencies> = async (app, { db, store, now, registries }) => {
  const context = (metadata: CommandContext["metadata"]): CommandContext => ({ store, now, registries, metadata });

  app.get(
    "/me",
    {
      config: { access: "any" },
      schema: {
        tags: ["clients"],
        operationId: "getMe",
        summary: "Who the calling key is: the admin, or a client and which of its keys",
        response: { 200: callerSchema },
      },
    },
    async (request) => principalOf(request),
  );

  /** The client with its limits and how much of each it has used today (UTC). */
  async function loadClient(clientId: string) {
    const client = await findClient(db, clientId);
    if (!client) throw notFound("client");
    const date = utcDay(now());
    const limits = await Promise.all(
      client.limits.map(async (limit) => ({
        ...limit,
        today: { date, ...(await usageOn(context({}), clientId, limit.currency, date)) },
      })),
    );
    return { id: client.clientId, name: client.name, limits, createdAt: client.createdAt.toISOString() };
  }

  app.post(
    "/clients",
    {
      config: { access: "admin", createsResource: true },
      schema: {
        tags: ["clients"],
        operationId: "createClient",
        summary: "Create a client",
        body: z.strictObject({ name: z.string().trim().min(1).max(200) }),
        response: { 201: clientSchema },
      },
    },
    async (request, reply) => {
      const result = await registerClient(context(eventMetadataOf(request)), claimedResourceId(request), request.body.name);
      if (!result.ok) throw new ApiProblem("internal_error", result.detail);
      await applyClientWrite({ db, store }, result.value.clientId, result.value.revision);
      return reply.code(201).send(await loadClient(result.value.clientId));
    },
  );

  app.get(
    "/clients",
    {
      config: { access: "admin" },
      schema: {
        tags: ["clients"],
        operationId: "listClients",
        summary: "Clients, newest first",
        querystring: listQuery,
        response: { 200: z.object({ data: z.array(clientSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const rows = await clientsNewestFirst(db, after, limit);
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.client_id));
      return { data: await Promise.all(page.data.map((row) => loadClient(row.client_id))), nextCursor: page.nextCursor };
    },
  );

  app.get(
    "/clients/:clientId/api-keys",
    {
      config: { access: "any" },
      schema: {
        tags: ["clients"],
        operationId: "listApiKeys",
        summary: "A client's API keys, newest first, revoked ones included (never the keys themselves)",
        params: clientIdParams,
        querystring: listQuery,
        response: { 200: z.object({ data: z.array(listedApiKeySchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const { clientId } = request.params;
      if (!canSeeClient(principalOf(request), clientId)) throw notFound("client");
      if (!(await clientExists(db, clientId))) throw notFound("client");
      const { limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeTimeCursor(cursor);
      const rows = await apiKeysNewestFirst(db, clientId, after, limit);
      const page = pageOf(rows, limit, (row) => encodeTimeCursor(row.created_at, row.key_id));
      return {
        data: page.data.map((row) => ({
          id: row.key_id,
          prefix: row.prefix ?? UNKNOWN_KEY_PREFIX,
          name: row.name,
          createdAt: row.created_at.toISOString(),
          revokedAt: row.revoked_at?.toISOString() ?? null,
          lastUsedAt: row.last_used_at?.toISOString() ?? null,
        })),
        nextCursor: page.nextCursor,
      };
    },
  );

  app.get(
    "/clients/:clientId",
    {
      config: { access: "any" },
      schema: { operationId: "getClient", tags: ["clients"], summary: "Get a client", params: clientIdParams, response: { 200: clientSchema } },
    },
    async (request) => {
      if (!canSeeClient(principalOf(request), request.params.clientId)) throw notFound("client");
      return loadClient(request.params.clientId);
    },
  );

  app.put(
    "/clients/:clientId/limits",
    {
      config: { access: "admin" },
      schema: {
        tags: ["clients"],
        operationId: "replaceClientLimits",
        summary: "Replace a client's transaction limits (per currency; absent fields are unlimited; UTC days)",
        params: clientIdParams,
        body: z.strictObject({ limits: limitsSchema }),
        response: { 200: clientSchema },
      },
    },
    async (request) => {
      const result = await setLimits(context(eventMetadataOf(request)), request.params.clientId, request.body.limits);
      if (!result.ok) throw notFound("client");
      await applyClientWrite({ db, store }, request.params.clientId, result.value.revision);
      return loadClient(request.params.clientId);
    },
  );

  app.post(
    "/clients/:clientId/api-keys",
    {
      config: { access: "admin", secretResponseFields: ["key"], createsResource: true },
      schema: {
        tags: ["clients"],
        operationId: "createApiKey",
        summary: "Create an API key for a client",
        params: clientIdParams,
        body: z
          .strictObject({
            name: z
              .string()
              .trim()
              .min(1)
              .max(100)
              .regex(/^\P{Cc}*$/u, "must not contain control characters")
              .optional()
              .describe("What to call the key, to tell it apart in lists (1 to 100 printable characters, trimmed)."),
          })
          .optional(),
        response: { 201: apiKeySchema },
      },
    },
    async (request, reply) => {
      const { clientId } = request.params;
      const result = await issueApiKey(context(eventMetadataOf(request)), clientId, claimedResourceId(request), request.body?.name);
      if (!result.ok) throw notFound("client");
      await applyClientWrite({ db, store }, clientId, result.value.revision);
      const { keyId, key, name, createdAt } = result.value;
      return reply.code(201).send({ id: keyId, key, name, createdAt });
    },
  );

  app.delete(
    "/clients/:clientId/api-keys/:keyId",
    {
      config: { access: "admin" },
      schema: {
        tags: ["clients"],
        operationId: "revokeApiKey",
        summary: "Revoke an API key at once",
        params: z.strictObject({ clientId: z.uuid(), keyId: z.uuid() }),
        response: { 204: z.null().describe("Revoked") },
      },
    },
    async (request, reply) => {
      const result = await revokeApiKey(context(eventMetadataOf(request)), request.params.clientId, request.params.keyId);
      if (!result.ok) throw notFound(result.detail === "No such client." ? "client" : "API key");
      await applyClientWrite({ db, store }, request.params.clientId, result.value.revision);
      return reply.code(204).send(null);
    },
  );
};
