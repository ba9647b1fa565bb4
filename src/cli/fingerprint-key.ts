import { generateFingerprintKey, parseFingerprintKeys } from "../crypto/card-fingerprint.ts";
import { rotateStoredKey } from "../crypto/fingerprint-key-store.ts";
import { loadMasterKeys } from "../crypto/master-keys.ts";
import { createSecretBox } from "../crypto/secrets.ts";
import type { Secret } from "../domain/secret.ts";
import { createLogger } from "../logger.ts";
import type { Ledger } from "./connection.ts";
import { writeErr, writeOut } from "./output.ts";
import { nextKeyId } from "../crypto/key-list.ts";

export interface FingerprintKeyConfig {
  cardFingerprintKey: Secret<string> | undefined;
  secretsMasterKeys: Secret<string> | undefined;
  dataDir: string;
}

/**
 * `ledger fingerprint-key rotate [--destroy-previous]`: a new fingerprint key, which every instance
 * uses from its next start. With `--destroy-previous` the older ones are erased, so the
 * fingerprints made under them (and the BINs that earlier releases kept beside them) reveal
 * nothing to anyone. Keys given in `CARD_FINGERPRINT_KEY` are the operator's: the command prints
 * a new entry to add, and the destruction is removing the old entries.
 */
export async function rotateFingerprintKey({ db }: Ledger, config: FingerprintKeyConfig, { destroyPrevious }: { destroyPrevious: boolean }): Promise<number> {
  if (config.cardFingerprintKey !== undefined) {
    const { keys } = parseFingerprintKeys(config.cardFingerprintKey.expose());
    const keyId = nextKeyId(keys.keys());
    const entry = `${keyId}:${generateFingerprintKey().toString("base64")}`;
    writeErr(
      "CARD_FINGERPRINT_KEY is given, so its keys are kept by you, not by the database: append the entry printed on stdout " +
        `to it (CARD_FINGERPRINT_KEY=<the current entries>,${keyId}:…) and restart every instance. ` +
        "To destroy the previous keys, then remove their entries and restart again: their fingerprints match nothing from then on.\n",
    );
    await writeOut(`${entry}\n`);
    return destroyPrevious ? 2 : 0;
  }
  const secrets = createSecretBox(await loadMasterKeys(config.secretsMasterKeys, config.dataDir, createLogger("warn", process.stderr)));
  const { keyId, destroyed } = await rotateStoredKey(db, secrets, { destroyPrevious });
  writeErr(
    `fingerprint key ${keyId} made, encrypted under master key ${secrets.activeKeyId}; every instance uses it from its next start` +
      (destroyPrevious ? `; destroyed: ${destroyed.length > 0 ? destroyed.join(", ") : "none left"}` : "") +
      "\n",
  );
  return 0;
}
