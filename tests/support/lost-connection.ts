import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

/**
 * Sends `request` with `table` (a read model) locked, and has PostgreSQL end every query that waits
 * for that lock, as a restart would, until the request answers: a route that waits for its own
 * write in that read model loses its connection after its append. The projector's writes to the
 * table are ended too; it carries on once the lock is gone.
 */
export async function answeredWhileConnectionsToTableEnd<Answer>(databaseUrl: string | undefined, table: string, request: () => Promise<Answer>): Promise<Answer> {
  if (databaseUrl === undefined) throw new Error("ending a connection needs PostgreSQL: the test database has no URL");
  const blocker = new pg.Client({ connectionString: databaseUrl });
  await blocker.connect();
  try {
    await blocker.query("begin");
    await blocker.query(`lock table ${pg.escapeIdentifier(table)} in access exclusive mode`);
    const answer = request();
    const answered = answer.then(() => true);
    while (!(await Promise.race([answered, sleep(100).then(() => false)]))) {
      await blocker.query("select pg_terminate_backend(pid) from pg_locks where relation = $1::regclass and not granted", [table]);
    }
    return await answer;
  } finally {
    await blocker.end();
  }
}
