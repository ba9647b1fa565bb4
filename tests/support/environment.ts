/** What the test run was given: the real servers to test against, when any. */
export const testEnvironment = {
  databaseUrl: process.env.DATABASE_URL || undefined,
  eventStoreUrl: process.env.EVENTSTORE_URL || undefined,
  /** The CA of DATABASE_URL's server certificate (`.ci/run`, from scripts/ensure-postgres.sh): tests of sslmode=verify-full. */
  postgresSslCaFile: process.env.PGSSL_CA_FILE_FOR_TESTS || undefined,
};
