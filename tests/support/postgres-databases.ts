import { randomBytes } from "node:crypto";
import pg from "pg";
import { testEnvironment } from "./environment.ts";

/** A database of a test run on the PostgreSQL server of DATABASE_URL, and how to drop it. */
export interface PostgresDatabase {
  name: string;
  url: string;
  drop: () => Promise<void>;
}

/** A new, empty database (no schema) on the PostgreSQL server of DATABASE_URL. */
export const createEmptyPostgresDatabase = (): Promise<PostgresDatabase> => createPostgresDatabase("template1");

/** A new database on the PostgreSQL server of DATABASE_URL, a copy of `template`. */
export async function createPostgresDatabase(template: string): Promise<PostgresDatabase> {
  const serverUrl = testEnvironment.databaseUrl;
  if (!serverUrl) throw new Error("DATABASE_URL is not set");
  const name = `ledger_test_${randomBytes(6).toString("hex")}`;
  await withServer(serverUrl, (client) => client.query(`create database ${name} template ${template}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withServer(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

async function withServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
