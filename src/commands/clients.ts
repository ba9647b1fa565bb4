import { generateApiKey, hashApiKey, keyPrefixOf } from "../auth/keys.ts";
import type { ClientFailure, ClientCommand } from "../domain/clients/decider.ts";
import type { CurrencyLimit } from "../domain/limits/limits.ts";
import type { CommandContext, CommandResult as Result } from "./context.ts";
import { clients } from "./streams.ts";

type CommandResult<T> = Result<T, ClientFailure>;

/**
 * `revision`: where the client's stream stood after the command (none while it has no events). Keys and
 * limits are read from the clients read model on every request, so the caller brings it up to
 * there before answering.
 */
type Written = { revision: bigint | undefined };

async function runClientCommand(context: CommandContext, clientId: string, command: ClientCommand): Promise<CommandResult<Written>> {
  const result = await clients.handle(context, clientId, command);
  if (!result.ok) return result;
  return { ok: true, value: { revision: result.tip?.revision } };
}

/**
 * Registers a client under `clientId`, the id its request's Idempotency-Key was claimed for: a
 * retry after a request that died once the client was recorded answers that client, not a second.
 */
export async function registerClient(context: CommandContext, clientId: string, name: string): Promise<CommandResult<{ clientId: string } & Written>> {
  const now = context.now().toISOString();
  const result = await runClientCommand(context, clientId, { type: "RegisterClient", clientId, name, now });
  if (result.ok) return { ok: true, value: { clientId, ...result.value } };
  if (result.error !== "already_exists") return result;
  const tip = await clients.tip(context, clientId);
  return { ok: true, value: { clientId, revision: tip?.revision } };
}

/**
 * Issues a key under `keyId`, the id its request's Idempotency-Key was claimed for. A retry after a
 * request that failed once the key was recorded answers that key, never a second one, with `key`
 * null: only its hash is kept, so the key itself can be shown no more.
 */
export async function issueApiKey(
  context: CommandContext,
  clientId: string,
  keyId: string,
  name: string | undefined,
): Promise<CommandResult<{ keyId: string; key: string | null; name: string | null; createdAt: string } & Written>> {
  const key = generateApiKey("client");
  const now = context.now().toISOString();
  const command: ClientCommand = { type: "IssueApiKey", keyId, keyHash: hashApiKey(key), prefix: keyPrefixOf(key), name, now };
  const result = await runClientCommand(context, clientId, command);
  if (result.ok) return { ok: true, value: { keyId, key, name: name ?? null, createdAt: now, ...result.value } };
  if (result.error !== "already_exists") return result;
  const { state, tip } = await clients.read(context, clientId);
  const issued = state.keys.get(keyId);
  if (!issued) throw new Error("an API key refused as issued is not in its client's stream");
  return { ok: true, value: { keyId, key: null, name: issued.name, createdAt: issued.issuedAt, revision: tip?.revision } };
}

export function revokeApiKey(context: CommandContext, clientId: string, keyId: string): Promise<CommandResult<Written>> {
  return runClientCommand(context, clientId, { type: "RevokeApiKey", keyId, now: context.now().toISOString() });
}

export function setLimits(context: CommandContext, clientId: string, limits: CurrencyLimit[]): Promise<CommandResult<Written>> {
  return runClientCommand(context, clientId, { type: "SetLimits", limits, now: context.now().toISOString() });
}
