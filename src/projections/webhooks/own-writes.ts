import { webhookEndpointStreamId } from "../../domain/webhooks/endpoint.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { webhooksProjection } from "./webhooks-projection.ts";

/** Until the endpoints read model shows the endpoint's stream up to `revision`, a bounded while. */
export function waitForWebhookEndpointWrite(
  { db, readYourWrites }: OwnWritesContext,
  { endpointId, revision }: { endpointId: string; revision: bigint },
): Promise<boolean> {
  const target = { projection: webhooksProjection.name, streamId: webhookEndpointStreamId(endpointId), revision };
  return readYourWrites.waitForProjection(target, async () =>
    Boolean(
      await db
        .selectFrom("webhook_endpoints")
        .select("endpoint_id")
        .where("endpoint_id", "=", endpointId)
        .where("revision", ">=", revision.toString())
        .executeTakeFirst(),
    ),
  );
}
