// Loads only commander: each command imports what it needs when it runs, so `ledger --help` (and a
// mistyped option) answers at once. zod is required synchronously by the option parsers that use it.
import { createRequire } from "node:module";
import { Argument, Command, CommanderError, InvalidArgumentError } from "commander";
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { Projection } from "../projections/projection.ts";
import type { Ledger } from "./connection.ts";

const CONNECTION_HELP = `
Connects as the service does, from the same environment: DATABASE_URL (PostgreSQL), or else the
embedded PGlite database under DATA_DIR (default ./data); EVENTSTORE_URL when the events live in
EventStoreDB. An embedded PGlite data directory can be opened by one process at a time: next to the
running service, the read-only commands work on a copy it makes for them (docs/cli.md); the others
need it stopped. On PostgreSQL the commands run next to a running service.

Results go to stdout, progress and diagnostics to stderr (use \`npm run --silent ledger -- ...\` so
npm's banner stays out of stdout). Exit status: 0 ok, 1 differences found or nothing to replay,
2 an error.`;

const requireModule = createRequire(import.meta.url);
/** zod, loaded the first time an option needs it. */
const zod = (): typeof z => (requireModule("zod") as { z: typeof z }).z;

/** A commander argument parser that validates with zod (the schema made when a value is parsed). */
function parsedBy<T>(schemaOf: (zod: typeof z) => z.ZodType<T>) {
  return (value: string): T => {
    const parsed = schemaOf(zod()).safeParse(value);
    if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues.map((issue) => issue.message).join("; "));
    return parsed.data;
  };
}

/**
 * Runs a command on the stores of the configuration; its result becomes the exit status. A
 * read-only command (`access: "read"`) on an embedded database that the running service holds
 * works on a snapshot the service hands over (src/cli/connection.ts).
 */
async function run(command: (ledger: Ledger, config: Config) => Promise<number>, access: "read" | "write" = "write"): Promise<void> {
  const [{ loadConfig }, { withLedger }] = await Promise.all([import("../config.ts"), import("./connection.ts")]);
  // The commands call no processor: an environment without processor URLs is theirs too (the
  // Docker image runs with NODE_ENV=production).
  const config = loadConfig(process.env, { callsProcessors: false });
  process.exitCode = await withLedger(config, (ledger) => command(ledger, config), { access });
}

const trustedCheckpoint = (z: typeof import("zod").z) => z
  .string()
  .regex(/^\d{1,15}:[0-9a-f]{64}$/, "give <sequence>:<digest>, the digest 64 lowercase hex digits as verify printed it")
  .transform((value) => {
    const [sequence, digest] = value.split(":");
    return { sequence: Number(sequence), digest: digest! };
  });
const TRUST_HELP =
  "start the checkpoint chain at a checkpoint you hold (or right after it) instead of at sequence 0: its sequence and digest, as an earlier verification printed them";

/** The read models, by name (src/projections/all.ts; a test keeps the two lists equal). */
export const PROJECTION_NAMES = ["clients", "host_configurations", "transactions", "settlements", "webhooks", "payment_methods", "journal"] as const;

const allProjections = async (): Promise<readonly Projection[]> => (await import("../projections/all.ts")).projections;
const projectionNamed = async (name: string) => (await allProjections()).find((projection) => projection.name === name)!;

// A reader that stops early (`ledger export | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

const program = new Command("ledger")
  .description("Audit and maintenance of the payment ledger's event log and read models.")
  .addHelpText("after", CONNECTION_HELP)
  .exitOverride();

program
  .command("rebuild")
  .description("replay the log into a fresh copy of a read model and swap it in, while the service keeps serving")
  .addArgument(new Argument("<projection>", "the read model").choices(PROJECTION_NAMES))
  .action(async (name: string) => {
    const [{ rebuild }, projection] = await Promise.all([import("./rebuild.ts"), projectionNamed(name)]);
    await run((ledger) => rebuild(ledger, projection));
  });

program
  .command("verify")
  .description("check every stream's hash chain and compare every read model with a fresh replay; exit 1 on any difference")
  .option("--limit <count>", "streams, and row keys per table, to name", parsedBy((z) => z.coerce.number().int().min(1).max(10_000)), 20)
  .option(
    "--settle-timeout <seconds>",
    "how long a read model may take to reach the replay's position",
    parsedBy((z) => z.coerce.number().int().min(0).max(3_600)),
    10,
  )
  .option("--key <file>", "the checkpoints' public keys: GET /audit/checkpoint-keys saved to a file, or one PEM public key (default: the keys the database publishes)")
  .option("--trust-checkpoint <sequence:digest>", TRUST_HELP, parsedBy(trustedCheckpoint))
  .action(async (options: { limit: number; settleTimeout: number; key?: string; trustCheckpoint?: { sequence: number; digest: string } }) => {
    const [{ verify }, projections] = await Promise.all([import("./verify.ts"), allProjections()]);
    await run(
      (ledger) =>
        verify(ledger, projections, {
          limit: options.limit,
          settleSeconds: options.settleTimeout,
          keyFile: options.key,
          trusted: options.trustCheckpoint,
        }),
      "read",
    );
  });

program
  .command("trial-balance")
  .description("print the journal's debits and credits per currency, and compare the journal with a fresh replay of the log; exit 1 when either fails")
  .option("--as-of <timestamp>", "only entries that happened at or before this moment (ISO 8601; default now)", parsedBy((z) => z.iso.datetime({ offset: true }).transform((value) => new Date(value))))
  .option(
    "--settle-timeout <seconds>",
    "how long the journal may take to reach the replay's position",
    parsedBy((z) => z.coerce.number().int().min(0).max(3_600)),
    10,
  )
  .action(async (options: { asOf?: Date; settleTimeout: number }) => {
    const { trialBalance } = await import("./trial-balance.ts");
    await run((ledger) => trialBalance(ledger, { ...(options.asOf && { asOf: options.asOf }), settleSeconds: options.settleTimeout }), "read");
  });

program
  .command("replay")
  .description("print a payment's stream as a timeline of its states")
  .argument("<transactionId>", "any transaction of the payment", parsedBy((z) => z.uuid()))
  .action(async (transactionId: string) => {
    const { replay } = await import("./replay.ts");
    await run((ledger) => replay(ledger, transactionId), "read");
  });

program
  .command("export")
  .description("write the event log as NDJSON to stdout, one event per line in global order (as GET /v1/events)")
  .option("--after <cursor>", "resume after this cursor: a nextCursor of GET /v1/events, or the one an export printed")
  .action(async (options: { after?: string }) => {
    const { exportLog } = await import("./export.ts");
    await run((ledger) => exportLog(ledger, options.after ?? null), "read");
  });

program
  .command("verify-export")
  .description(
    "check every hash chain of an NDJSON export offline (no database, no service) and print per stream what it proved; " +
      "exit 1 on a missing, reordered, edited or inserted event",
  )
  .argument("<file>", "an export: the output of `ledger export`, or the events of GET /v1/events pages one per line")
  .option("--partial", "the export starts mid-log (made with --after): a stream may start past revision 0, linked to a hash given")
  .option(
    "--against <earlier-export>",
    "an earlier export kept outside the database: each of its stream heads must still be in <file>, at its revision with its hash",
  )
  .option(
    "--checkpoints <file>",
    "checkpoints kept outside the database (`ledger checkpoints export`): each must verify with --key, and each head it covers must be in <file>, at its revision with its hash",
  )
  .option(
    "--key <file>",
    "the checkpoints' public keys: GET /audit/checkpoint-keys (no API key) saved to a file, or one PEM public key; checks the --checkpoints file and the checkpoints the export carries",
  )
  .option("--trust-checkpoint <sequence:digest>", TRUST_HELP, parsedBy(trustedCheckpoint))
  .option(
    "--trial-balance <file>",
    "a trial balance the service served (GET /v1/journal/trial-balance saved as answered): the journal recomputed from <file> must give the same as of its asOf",
  )
  .option("--client-id <id>", "with --trial-balance: it is this client's (a client key's, or an admin's with clientId); every client's without")
  .action(
    async (
      file: string,
      options: {
        partial?: boolean;
        against?: string;
        checkpoints?: string;
        key?: string;
        trustCheckpoint?: { sequence: number; digest: string };
        trialBalance?: string;
        clientId?: string;
      },
      command: Command,
    ) => {
      // Commander prints only the usage errors it raises itself: these would exit 2 unexplained.
      if (options.checkpoints !== undefined && options.key === undefined) command.error("error: --checkpoints needs --key");
      if (options.trustCheckpoint !== undefined && options.key === undefined) command.error("error: --trust-checkpoint needs --key");
      if (options.trialBalance !== undefined && options.partial === true) command.error("error: --trial-balance needs the whole log: not with --partial");
      if (options.clientId !== undefined && options.trialBalance === undefined) command.error("error: --client-id needs --trial-balance");
      const { verifyExportFile } = await import("./verify-export.ts");
      process.exitCode = await verifyExportFile(file, {
        partial: options.partial === true,
        against: options.against,
        checkpoints: options.checkpoints,
        keyFile: options.key,
        trusted: options.trustCheckpoint,
        trialBalance: options.trialBalance,
        clientId: options.clientId,
      });
    },
  );

program
  .command("checkpoints")
  .description("the signed checkpoints of the chain heads (CHECKPOINT_INTERVAL_SECONDS)")
  .command("export")
  .description("write the checkpoints, each with the heads it covers, as NDJSON to stdout: the file to keep outside the database")
  .option("--since <timestamp>", "only those recorded at or after this ISO 8601 time", parsedBy((z) => z.iso.datetime({ offset: true })))
  .action(async (options: { since?: string }) => {
    const { exportCheckpoints } = await import("./checkpoints.ts");
    await run((ledger) => exportCheckpoints(ledger, options.since === undefined ? undefined : new Date(options.since)), "read");
  });

program
  .command("settlements")
  .description("print the settlement batches opened on a day and whether each matches its processor's totals; exit 1 if any does not")
  .option("--date <YYYY-MM-DD>", "the UTC day (default: today)", parsedBy((z) => z.iso.date()))
  .action(async (options: { date?: string }) => {
    const [{ printSettlements }, { usesColour }] = await Promise.all([import("./settlements.ts"), import("./output.ts")]);
    await run(
      (ledger) => printSettlements(ledger, options.date ?? new Date().toISOString().slice(0, 10), { colour: usesColour(process.stdout, process.env) }),
      "read",
    );
  });

program
  .command("admin-key")
  .description("manage the admin API key the database keeps (the one generated on the first start)")
  .command("rotate")
  .description("replace it with a new key, printed once on stdout; the old one stops working at once (refused when ADMIN_API_KEY is set)")
  .action(async () => {
    const { rotateAdminKeyCommand } = await import("./admin-key.ts");
    await run((ledger, config) => rotateAdminKeyCommand(ledger, config.adminApiKey));
  });

program
  .command("rewrap-keys")
  .description(
    "wrap every payment method's data key again under the active master key (the last of SECRETS_MASTER_KEYS), after appending a new one; events are left as they are",
  )
  .action(async () => {
    const { rewrapKeys } = await import("./rewrap-keys.ts");
    await run((ledger, config) => rewrapKeys(ledger, config.secretsMasterKeys, config.dataDir));
  });

program
  .command("fingerprint-key")
  .description("manage the card fingerprint key (CARD_FINGERPRINT_KEY, or the one generated and kept encrypted under the master keys)")
  .command("rotate")
  .description(
    "start a new fingerprint key, used by each instance from its next start; --destroy-previous erases the older ones, whose fingerprints then match nothing (with CARD_FINGERPRINT_KEY given, prints a new entry to add to it)",
  )
  .option("--destroy-previous", "erase every older fingerprint key")
  .action(async (options: { destroyPrevious?: boolean }) => {
    const { rotateFingerprintKey } = await import("./fingerprint-key.ts");
    await run((ledger, config) => rotateFingerprintKey(ledger, config, { destroyPrevious: options.destroyPrevious === true }));
  });

program
  .command("backup")
  .description(
    "write every row of the database, as JSON, into <dir> (and DATA_DIR's generated master keys into <dir>/master-keys); " +
      "next to a running service too (embedded: on a snapshot it hands over)",
  )
  .argument("<dir>", "a new directory, or an empty one")
  .action(async (dir: string) => {
    const { backup } = await import("./backup.ts");
    await run((ledger, config) => backup(ledger, config.dataDir, dir), "read");
  });

program
  .command("restore")
  .description("load a backup into an empty database (a new DATA_DIR, or a new PostgreSQL database) made by the same release; then run verify")
  .argument("<dir>", "a directory `ledger backup` wrote")
  .action(async (dir: string) => {
    const { restore } = await import("./backup.ts");
    await run((ledger, config) => restore(ledger, config.dataDir, dir));
  });

try {
  await program.parseAsync();
} catch (error) {
  // Commander has already printed its usage errors (and help, which exits 0).
  if (error instanceof CommanderError) process.exitCode = error.exitCode === 0 ? 0 : 2;
  else {
    const option = error instanceof Error && error.name === "InvalidCursorError" ? "--after: " : "";
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    process.stderr.write(`ledger: ${option}${message}${cause}\n`);
    process.exitCode = 2;
  }
}
