import { rotateAdminKey } from "../auth/admin-key.ts";
import type { Secret } from "../domain/secret.ts";
import type { Ledger } from "./connection.ts";
import { writeErr, writeOut } from "./output.ts";

/**
 * Replaces the admin key the database keeps by a new one, printed once on stdout: the old key
 * stops working at once on every instance. A key set by ADMIN_API_KEY is the environment's to
 * change, so the command refuses when it is set (exit 2) and changes nothing.
 */
export async function rotateAdminKeyCommand({ db }: Pick<Ledger, "db">, configured: Secret<string> | undefined): Promise<number> {
  if (configured) {
    writeErr("ledger: ADMIN_API_KEY is set, and the service uses it as its admin key: change the variable and restart every instance to replace it.\n");
    return 2;
  }
  const key = await rotateAdminKey(db);
  writeErr(
    "New admin API key (shown once; only its hash is kept). The previous key no longer works. An instance started with ADMIN_API_KEY set uses that variable instead.\n",
  );
  await writeOut(`${key}\n`);
  return 0;
}
