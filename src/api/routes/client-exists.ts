import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import { ApiProblem } from "../problems.ts";

/** An admin's `clientId` in a body must name a client: 400 otherwise. */
export async function assertClientExists(db: Kysely<Database>, clientId: string): Promise<void> {
  const client = await db.selectFrom("clients").select("client_id").where("client_id", "=", clientId).executeTakeFirst();
  if (!client) {
    throw new ApiProblem("validation_error", "The clientId names no client.", {
      errors: [{ path: "clientId", message: "no such client" }],
    });
  }
}
