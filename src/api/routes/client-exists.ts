import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.ts";
import { clientExists } from "../../projections/clients/queries.ts";
import { ApiProblem } from "../problems.ts";

/** An admin's `clientId` in a body must name a client: 400 otherwise. */
export async function assertClientExists(db: Kysely<Database>, clientId: string): Promise<void> {
  if (!(await clientExists(db, clientId))) {
    throw new ApiProblem("validation_error", "The clientId names no client.", {
      errors: [{ path: "clientId", message: "no such client" }],
    });
  }
}
