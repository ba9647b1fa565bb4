import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { OwnWritesContext } from "../read-your-writes.ts";
import { awaitOwnPaymentWrites } from "./own-writes.ts";
import { type CaughtUpContext, readCaughtUp } from "./read-caught-up.ts";

/**
 * Where a client's transaction is, from the transactions read model once the client's answered
 * writes are in it, and once it has caught up with the log when it misses: follow-ups' lookup of
 * their parent (`LocateTransaction` of src/commands).
 */
export const transactionLocator =
  (context: OwnWritesContext & CaughtUpContext) =>
  async (clientId: string, transactionId: string): Promise<{ paymentId: string; processor: Processor; hostConfigurationId: string } | undefined> => {
    await awaitOwnPaymentWrites(context, clientId);
    const row = await readCaughtUp(context, () =>
      context.db
        .selectFrom("transactions")
        .select(["payment_id", "processor", "view"])
        .where("transaction_id", "=", transactionId)
        .where("client_id", "=", clientId)
        .executeTakeFirst(),
    );
    if (!row) return undefined;
    return { paymentId: row.payment_id, processor: row.processor as Processor, hostConfigurationId: row.view.hostConfigurationId };
  };
