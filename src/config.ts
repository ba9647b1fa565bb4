import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  EVENTSTORE_URL: optionalString.pipe(z.string().regex(/^(esdb|kurrentdb)(\+discover)?:\/\//, "must be an esdb:// connection string").optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export interface Config {
  port: number;
  host: string;
  /** Unset: embedded PostgreSQL (PGlite) under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Unset: events are stored in PostgreSQL. */
  eventStoreUrl: string | undefined;
  logLevel: z.infer<typeof environmentSchema>["LOG_LEVEL"];
}

/** Reads and validates the environment once; everything else receives the result. */
export function loadConfig(environment: Record<string, string | undefined>): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const env = parsed.data;
  return {
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    eventStoreUrl: env.EVENTSTORE_URL,
    logLevel: env.LOG_LEVEL,
  };
}
