/** What the test run was given: the real servers to test against, when any. */
export const testEnvironment = {
  databaseUrl: process.env.DATABASE_URL || undefined,
  eventStoreUrl: process.env.EVENTSTORE_URL || undefined,
};
