import { rewrapDataKeys } from "../vault/card-vault.ts";
import { loadMasterKeys } from "../crypto/master-keys.ts";
import { createSecretBox } from "../crypto/secrets.ts";
import type { Secret } from "../domain/secret.ts";
import { createLogger } from "../logger.ts";
import type { Ledger } from "./connection.ts";
import { count, writeErr } from "./output.ts";

/**
 * The second half of a master key rotation: once the service runs with the new key appended to
 * `SECRETS_MASTER_KEYS` (the last one is active), this wraps every payment method's data key
 * again under it, without touching an event (they hold only ciphertexts under the data keys).
 * When it reports none left under an older key, that key can leave `SECRETS_MASTER_KEYS` as
 * far as the vault is concerned (host credentials and webhook secrets in events may still use it).
 */
export async function rewrapKeys({ db }: Ledger, masterKeys: Secret<string> | undefined, dataDir: string): Promise<number> {
  const secrets = createSecretBox(await loadMasterKeys(masterKeys, dataDir, createLogger("warn", process.stderr)));
  const rewrapped = await rewrapDataKeys(db, secrets, () => new Date());
  const left = await db
    .selectFrom("payment_method_keys")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("master_key_id", "<>", secrets.activeKeyId)
    .executeTakeFirstOrThrow();
  writeErr(
    `rewrapped ${count(rewrapped, "data key")} under master key ${secrets.activeKeyId}; ` +
      `${count(Number(left.count), "data key")} left under other master keys\n`,
  );
  return 0;
}
