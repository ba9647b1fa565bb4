/** What the test run was given: the real servers to test against, when any. */
export const testEnvironment = {
  databaseUrl: process.env.DATABASE_URL || undefined,
  eventStoreUrl: process.env.EVENTSTORE_URL || undefined,
  /**
   * A live EventStoreDB / KurrentDB that every service a test starts keeps its events in, its read
   * models staying in the test's database: the API journeys run live, by hand (CI has no server).
   * The server's log outlives each test's database, so give each file a fresh server.
   */
  journeysEventStoreUrl: process.env.JOURNEYS_EVENTSTORE_URL || undefined,
  /** The CA of DATABASE_URL's server certificate (`.ci/run`, from scripts/ensure-postgres.sh): tests of sslmode=verify-full. */
  postgresSslCaFile: process.env.PGSSL_CA_FILE_FOR_TESTS || undefined,
};
