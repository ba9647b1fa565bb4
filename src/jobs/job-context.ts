import type { Kysely } from "kysely";
import type { CommandContext } from "../commands/context.ts";
import type { Database } from "../db/schema.ts";

/**
 * What a job runs its commands with, and the database of its own queries: a job may read the read
 * models to find its work (a command never does: it decides on its streams and its ports).
 */
export type JobContext<Context extends CommandContext = CommandContext> = Context & { db: Kysely<Database> };
