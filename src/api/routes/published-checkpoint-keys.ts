import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkpointKeyListSchema, readCheckpointKeys } from "../../audit/checkpoint-keys.ts";
import type { EventStore } from "../../eventstore/port.ts";

/**
 * `GET /audit/checkpoint-keys`: the checkpoint public keys where an auditor holding no API key can
 * fetch them. Outside `/v1`, because every `/v1` route takes an API key; it serves public keys only.
 */
export function registerPublishedCheckpointKeys(app: FastifyInstance, store: EventStore): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/audit/checkpoint-keys",
    {
      schema: {
        tags: ["audit"],
        operationId: "getPublishedCheckpointKeys",
        summary: "The checkpoint public keys, for anyone: no API key",
        description:
          "The same list as `GET /v1/audit/checkpoint-keys`, published for auditors who hold no API key: every " +
          "public key that signs or signed the service's chain checkpoints, oldest first (a rotated key stays). " +
          "Public keys only, never a secret. Empty while checkpoints are off (CHECKPOINT_INTERVAL_SECONDS unset).",
        security: [],
        response: { 200: checkpointKeyListSchema },
      },
    },
    async () => ({ keys: await readCheckpointKeys(store) }),
  );
}
