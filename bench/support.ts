import { randomBytes } from "node:crypto";
import { parseArgs, type ParseArgsConfig } from "node:util";
import pg from "pg";
import { type DatabaseConnection, type DatabaseKind, openDatabase } from "../src/db/connection.ts";
import type { JsonObject, NewEvent } from "../src/eventstore/port.ts";

const DEFAULT_SERVER_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface BenchTarget {
  connection: DatabaseConnection;
  /** Connection string of the fresh PostgreSQL database; undefined on PGlite. */
  url: string | undefined;
  /** Closes the connection and, on PostgreSQL, drops the bench database. */
  close(): Promise<void>;
}

/** `--database-url`, else `DATABASE_URL`, else the local server's `test` database. */
const serverUrlOf = (option: unknown) =>
  typeof option === "string" ? option : (process.env.DATABASE_URL ?? DEFAULT_SERVER_URL);

/** Parses `--target postgres|pglite|both`, `--database-url` and the bench's own string options. */
export function benchArgs(optionNames: readonly string[]) {
  const options: NonNullable<ParseArgsConfig["options"]> = {
    target: { type: "string", default: "both" },
    "database-url": { type: "string" },
  };
  for (const name of optionNames) options[name] = { type: "string" };
  const { values } = parseArgs({ options, strict: true });
  const target = values.target;
  if (target !== "postgres" && target !== "pglite" && target !== "both") {
    throw new Error(`--target must be postgres, pglite or both, not ${String(target)}`);
  }
  const targets: DatabaseKind[] = target === "both" ? ["postgres", "pglite"] : [target];
  return { values, targets, serverUrl: serverUrlOf(values["database-url"]) };
}

/**
 * For benches that only run on a PostgreSQL server: parses `--database-url` and the bench's own
 * string options (no `--target`).
 */
export function serverArgs(optionNames: readonly string[], flagNames: readonly string[] = []) {
  const options: NonNullable<ParseArgsConfig["options"]> = { "database-url": { type: "string" } };
  for (const name of optionNames) options[name] = { type: "string" };
  for (const name of flagNames) options[name] = { type: "boolean" };
  const { values } = parseArgs({ options, strict: true });
  return { values, serverUrl: serverUrlOf(values["database-url"]) };
}

/** A positive integer option, or its default. */
export function intOption(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new Error(`--${name} must be a positive integer`);
  return parsed;
}

/**
 * Opens a fresh, migrated database: on PostgreSQL a new `ledger_bench_<random>` database on the
 * server `serverUrl` points at (dropped again on close), on PGlite an in-memory instance.
 */
export async function openTarget(kind: DatabaseKind, serverUrl: string, poolSize?: number): Promise<BenchTarget> {
  if (kind === "pglite") {
    const connection = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
    return { connection, url: undefined, close: () => connection.close() };
  }
  const name = `ledger_bench_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = () => onServer(serverUrl, `drop database if exists ${name} with (force)`);
  let connection: DatabaseConnection;
  try {
    connection = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://", poolSize });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    connection,
    url: url.toString(),
    close: async () => {
      await connection.close();
      await drop();
    },
  };
}

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const STEPS = ["authorization_requested", "authorized", "capture_requested", "captured", "settled"] as const;

/** Event `revision` of a payment stream: a card payment's life, with a ~300-byte data payload. */
export function paymentEvent(streamIndex: number, revision: number): NewEvent {
  const step = STEPS[revision % STEPS.length] ?? "settled";
  const data: JsonObject = {
    paymentId: `pay_${streamIndex.toString().padStart(12, "0")}`,
    occurredAt: new Date().toISOString(),
    amount: { minor: 1_000 + (streamIndex % 90_000), currency: "EUR" },
    processor: ["adyen", "stripe", "worldpay", "checkout"][streamIndex % 4] ?? "adyen",
    merchantId: `merch_${(streamIndex % 500).toString().padStart(6, "0")}`,
    card: { brand: "visa", last4: "4242", expiry: "12/29", fingerprint: "fp_1_Kx3mE0b9pQ2sW7vY1zT4uR8nL6hJ5gF3dC2aB1xZ0yW" },
    processorReference: `ref_${streamIndex}_${revision}_abcdefghijklmnopqrstuv`,
    hostConfigurationVersion: 7,
  };
  return {
    type: `payment.${step}.v1`,
    data,
    metadata: { requestId: crypto.randomUUID(), actor: "bench" },
  };
}

/** The value at quantile `q` (0..1) of an ascending array. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface ResultRow {
  target: string;
  metric: string;
  value: string;
  goal: string;
  met: string;
}

/** Prints the result rows as an aligned table, then the command that produced them. */
export function printResults(rows: readonly ResultRow[]): void {
  const header: ResultRow = { target: "target", metric: "metric", value: "value", goal: "goal", met: "met" };
  const keys = Object.keys(header) as (keyof ResultRow)[];
  const widths = keys.map((key) => Math.max(...[header, ...rows].map((row) => row[key].length)));
  const line = (row: ResultRow) => keys.map((key, i) => row[key].padEnd(widths[i] ?? 0)).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const row of rows) console.log(line(row));
  console.log(`\ncommand: npx tsx ${process.argv.slice(1).map((arg) => arg.replace(`${process.cwd()}/`, "")).join(" ")}`);
}

export const formatNumber = (n: number, digits = 0): string =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
