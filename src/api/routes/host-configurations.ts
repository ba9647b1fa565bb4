import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  chooseDefaultHostConfiguration,
  createHostConfiguration,
  type DefaultChoiceFailure,
  type EnabledConfigurationsBefore,
  type HostConfigurationContext,
  type HostConfigurationInput,
  updateHostConfiguration,
} from "../../commands/host-configurations.ts";
import type { SecretBox } from "../../crypto/secrets.ts";
import {
  hostConfigurationDecider,
  type HostConfigurationFailure,
  type HostConfigurationView,
  hostConfigurationStreamId,
  versions,
} from "../../domain/host-configurations/decider.ts";
import { hostConfigurationSchemas, type Processor, processors } from "../../domain/host-configurations/schemas.ts";
import { Secret } from "../../domain/secret.ts";
import type { JsonObject } from "../../eventstore/port.ts";
import { canSeeClient, ownClientOf, principalOf } from "../auth.ts";
import { readEvents } from "../../eventstore/typed-read.ts";
import { eventMetadataOf } from "../event-metadata.ts";
import { claimedResourceId } from "../idempotency.ts";
import { ApiProblem, notFound } from "../problems.ts";
import { pascalCase } from "../openapi/pascal-case.ts";
import { decodeIdCursor, encodeIdCursor, listQuery, pageOf } from "../pagination.ts";
import { assertClientExists } from "./client-exists.ts";
import type { RouteDependencies } from "./dependencies.ts";
import { waitForDefaultChoice, waitForHostConfigurationWrite } from "../../projections/host-configurations/own-writes.ts";
import { findHostConfiguration, hostConfigurationsNewestFirst } from "../../projections/host-configurations/queries.ts";

export interface HostConfigurationRouteDependencies extends RouteDependencies {
  secrets: SecretBox;
  enabledConfigurationsBefore: EnabledConfigurationsBefore;
}

/** One version of a configuration, as its stream recorded it. */
const versionSchema = z
  .looseObject({
    id: z.uuid(),
    processor: z.enum(processors),
    clientId: z.uuid(),
    name: z.string(),
    enabled: z.boolean(),
    credentials: z.object({ configured: z.boolean() }),
    version: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "HostConfigurationVersion" });

/** The configuration as it stands: its latest version, and whether it is its client's default. */
const viewSchema = versionSchema
  .extend({ isDefault: z.boolean().describe("Payments of this client and processor that name no hostConfigurationId run on it.") })
  .meta({ id: "HostConfiguration" });

type CurrentView = HostConfigurationView & { isDefault: boolean };
const currentView = (row: { view: HostConfigurationView; is_default: boolean }): CurrentView => ({
  ...row.view,
  isDefault: row.is_default,
});

const idParams = z.strictObject({ id: z.uuid() });
const ifMatch = z.strictObject({ "if-match": z.string().optional() }).loose();

export const hostConfigurationRoutes: FastifyPluginAsyncZod<HostConfigurationRouteDependencies> = async (app, deps) => {
  for (const processor of processors) registerProcessorRoutes(app, deps, processor);
};

type ZodApp = Parameters<FastifyPluginAsyncZod>[0];

function registerProcessorRoutes(
  app: ZodApp,
  deps: HostConfigurationRouteDependencies,
  processor: Processor,
) {
  const { db, store, now, secrets, registries } = deps;
  const base = `/host-configurations/${processor}`;
  const schemas = hostConfigurationSchemas[processor];
  const tags = ["host configurations"];
  const context = (request: FastifyRequest): HostConfigurationContext => ({
    store,
    now,
    registries,
    enabledConfigurationsBefore: deps.enabledConfigurationsBefore,
    metadata: eventMetadataOf(request),
  });
  /** A written configuration answers once the read model shows it (a bounded while). */
  const shown = async ({ view, revision }: { view: HostConfigurationView; revision?: bigint }) => {
    if (revision !== undefined) await waitForHostConfigurationWrite(deps, { hostConfigurationId: view.id, version: view.version, revision });
  };

  /** The configuration as the caller may see it: another processor's or client's is 404. */
  async function visible(request: FastifyRequest, id: string): Promise<CurrentView> {
    const row = await findHostConfiguration(db, id);
    if (!row || row.processor !== processor || !canSeeClient(principalOf(request), row.client_id)) {
      throw notFound("host configuration");
    }
    return currentView(row);
  }

  app.post(
    base,
    {
      config: { access: "admin", createsResource: true },
      schema: { operationId: `create${pascalCase(processor)}HostConfiguration`, tags, summary: `Create a ${processor} host configuration`, body: schemas.create, response: { 201: viewSchema } },
    },
    async (request, reply) => {
      const { credentials, ...configuration } = request.body;
      await assertClientExists(db, configuration.clientId);
      const input = { processor, configuration, credentials: credentials && new Secret<JsonObject>(credentials) } as HostConfigurationInput;
      const result = await createHostConfiguration(context(request), secrets, claimedResourceId(request), input);
      if (!result.ok) throw failure(result.error, result.detail);
      await shown(result.value);
      if (result.value.defaultChosen) await waitForDefaultChoice(deps, result.value.defaultChosen);
      // As the streams have it (the configuration's and, for the default, the client's): the read
      // model may not have caught up.
      const { view, isDefault } = result.value;
      return reply.code(201).header("etag", etagOf(view.version)).send({ ...view, isDefault });
    },
  );

  app.put(
    `${base}/:id`,
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: `replace${pascalCase(processor)}HostConfiguration`,
        summary: `Replace a ${processor} host configuration (credentials left out are kept)`,
        params: idParams,
        headers: ifMatch,
        body: schemas.update,
        response: { 200: viewSchema },
      },
    },
    async (request, reply) => {
      const { isDefault } = await visible(request, request.params.id);
      const { credentials, ...configuration } = request.body;
      const input = { processor, configuration, credentials: credentials && new Secret<JsonObject>(credentials) } as HostConfigurationInput;
      const expected = parseIfMatch(request.headers["if-match"]);
      const result = await updateHostConfiguration(context(request), secrets, request.params.id, input, expected);
      if (!result.ok) throw failure(result.error, result.detail);
      await shown(result.value);
      // As the configuration's stream has it: the read model may not have caught up. An update
      // leaves the client's default as it was.
      const { view } = result.value;
      return reply.header("etag", etagOf(view.version)).send({ ...view, isDefault });
    },
  );

  app.put(
    `${base}/:id/default`,
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: `setDefault${pascalCase(processor)}HostConfiguration`,
        summary: `Make a ${processor} host configuration its client's default for ${processor}`,
        description:
          "Payments of the client that name no hostConfigurationId run on the default. No body. Choosing the current default " +
          "again changes nothing. A disabled configuration cannot be chosen: 422 `host_configuration_disabled`.",
        params: idParams,
        response: { 200: viewSchema },
      },
    },
    async (request, reply) => {
      const result = await chooseDefaultHostConfiguration(context(request), processor, request.params.id);
      if (!result.ok) throw defaultChoiceFailure(result.error, result.detail);
      if (result.value) await waitForDefaultChoice(deps, result.value);
      const view = await visible(request, request.params.id);
      return reply.header("etag", etagOf(view.version)).send(view);
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { access: "any" },
      schema: { operationId: `get${pascalCase(processor)}HostConfiguration`, tags, summary: `Get a ${processor} host configuration`, params: idParams, response: { 200: viewSchema } },
    },
    async (request, reply) => {
      const view = await visible(request, request.params.id);
      return reply.header("etag", etagOf(view.version)).send(view);
    },
  );

  app.get(
    base,
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: `list${pascalCase(processor)}HostConfigurations`,
        summary: `List ${processor} host configurations, newest first`,
        querystring: listQuery.extend({ clientId: z.uuid().optional() }),
        response: { 200: z.object({ data: z.array(viewSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { clientId, limit, cursor } = request.query;
      if (clientId && !canSeeClient(principal, clientId)) return { data: [], nextCursor: null };
      const ownClient = ownClientOf(principal) ?? clientId;
      // An empty cursor is no cursor here.
      const after = cursor ? decodeIdCursor(cursor) : undefined;
      const rows = await hostConfigurationsNewestFirst(db, { processor, clientId: ownClient, after, limit });
      const page = pageOf(rows, limit, (row) => encodeIdCursor(row.host_configuration_id));
      return { data: page.data.map(currentView), nextCursor: page.nextCursor };
    },
  );

  app.get(
    `${base}/:id/versions`,
    {
      config: { access: "any" },
      schema: {
        tags,
        operationId: `list${pascalCase(processor)}HostConfigurationVersions`,
        summary: `Every version of a ${processor} host configuration, oldest first`,
        description: "Versions are the configuration's own history: whether it is the default is its client's choice, not part of a version.",
        params: idParams,
        response: { 200: z.object({ data: z.array(versionSchema) }) },
      },
    },
    async (request) => {
      await visible(request, request.params.id);
      const events = await readEvents(store, hostConfigurationDecider.isEvent, hostConfigurationStreamId(request.params.id));
      return { data: versions(events) };
    },
  );
}

const etagOf = (version: number) => `"${version}"`;

/** `"3"`, `W/"3"` or `3`; anything else can never match a version. */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header.trim());
  return match ? Number(match[1]) : -1;
}

function defaultChoiceFailure(error: DefaultChoiceFailure, detail: string): ApiProblem {
  return error === "disabled" ? new ApiProblem("host_configuration_disabled", detail) : notFound("host configuration");
}

function failure(error: HostConfigurationFailure, detail: string): ApiProblem {
  switch (error) {
    case "version_conflict":
      return new ApiProblem("version_conflict", detail);
    case "client_mismatch":
      return new ApiProblem("validation_error", detail, { errors: [{ path: "clientId", message: "cannot change" }] });
    case "not_found":
    case "processor_mismatch":
    case "already_exists":
      return notFound("host configuration");
  }
}
