import { generateApiKey, hashApiKey } from "../auth/keys.ts";
import { type ClientFailure, clientDecider, clientStreamId, type ClientCommand } from "../domain/clients/decider.ts";
import type { CurrencyLimit } from "../domain/limits/limits.ts";
import { newId } from "../ids.ts";
import { clientsProjection } from "../projections/clients/clients-projection.ts";
import { waitForProjection } from "../projections/read-your-writes.ts";
import type { CommandContext, CommandResult as Result } from "./context.ts";
import { execute } from "./execute.ts";

type CommandResult<T> = Result<T, ClientFailure>;

async function runClientCommand(context: CommandContext, clientId: string, command: ClientCommand) {
  const streamId = clientStreamId(clientId);
  const result = await execute(context.store, clientDecider, streamId, command, context.metadata);
  if (result.ok && result.events.length > 0 && result.tip) {
    const revision = result.tip.revision.toString();
    await waitForProjection(context.db, { projection: clientsProjection.name, streamId, revision: result.tip.revision }, async () =>
      Boolean(
        await context.db
          .selectFrom("clients")
          .select("client_id")
          .where("client_id", "=", clientId)
          .where("revision", ">=", revision)
          .executeTakeFirst(),
      ),
    );
  }
  return result;
}

export async function registerClient(context: CommandContext, name: string): Promise<CommandResult<{ clientId: string }>> {
  const clientId = newId();
  const now = context.now().toISOString();
  const result = await runClientCommand(context, clientId, { type: "RegisterClient", clientId, name, now });
  return result.ok ? { ok: true, value: { clientId } } : result;
}

export async function issueApiKey(
  context: CommandContext,
  clientId: string,
): Promise<CommandResult<{ keyId: string; key: string; createdAt: string }>> {
  const key = generateApiKey("client");
  const keyId = newId();
  const now = context.now().toISOString();
  const result = await runClientCommand(context, clientId, { type: "IssueApiKey", keyId, keyHash: hashApiKey(key), now });
  return result.ok ? { ok: true, value: { keyId, key, createdAt: now } } : result;
}

export async function revokeApiKey(context: CommandContext, clientId: string, keyId: string): Promise<CommandResult<null>> {
  const now = context.now().toISOString();
  const result = await runClientCommand(context, clientId, { type: "RevokeApiKey", keyId, now });
  return result.ok ? { ok: true, value: null } : result;
}

export async function setLimits(context: CommandContext, clientId: string, limits: CurrencyLimit[]) {
  return runClientCommand(context, clientId, { type: "SetLimits", limits, now: context.now().toISOString() });
}
