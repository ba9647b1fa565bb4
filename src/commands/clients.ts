import { generateApiKey, hashApiKey, keyPrefixOf } from "../auth/keys.ts";
import { type ClientFailure, clientDecider, clientStreamId, type ClientCommand } from "../domain/clients/decider.ts";
import type { CurrencyLimit } from "../domain/limits/limits.ts";
import { newId } from "../ids.ts";
import { clientsProjection } from "../projections/clients/clients-projection.ts";
import type { CommandContext, CommandResult as Result } from "./context.ts";
import { execute } from "./execute.ts";

type CommandResult<T> = Result<T, ClientFailure>;

async function runClientCommand(context: CommandContext, clientId: string, command: ClientCommand) {
  const result = await execute(context.store, clientDecider, clientStreamId(clientId), command, context.metadata);
  if (result.ok && result.tip) await applyToReadModel(context, clientId, result.tip.revision);
  return result;
}

/**
 * Applies the client's events its read-model rows lack, up to `revision` at least, with the clients
 * projection's own function. Keys and limits are read from those rows on every request, so once
 * the command answers, its effect holds on every instance, however far the projection lags.
 */
async function applyToReadModel(context: CommandContext, clientId: string, revision: bigint): Promise<void> {
  const row = await context.db.selectFrom("clients").select("revision").where("client_id", "=", clientId).executeTakeFirst();
  const applied = row ? BigInt(row.revision) : -1n;
  if (applied >= revision) return;
  const events = await context.store.readStream(clientStreamId(clientId), { from: applied + 1n });
  await context.db.transaction().execute((trx) => clientsProjection.apply(trx, events, new Map()));
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
  const result = await runClientCommand(context, clientId, { type: "IssueApiKey", keyId, keyHash: hashApiKey(key), prefix: keyPrefixOf(key), now });
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
