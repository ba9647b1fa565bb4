import { type SelectQueryBuilder, sql, type StringReference } from "kysely";

/** Where a keyset page newest first starts: after this (timestamp, id) pair, the cursor's. */
export interface TimeKey {
  at: Date;
  id: string;
}

/**
 * A keyset page, newest first, on (a timestamp, an id): the rows after the cursor's pair, one more
 * than `limit` so that the caller knows whether another page follows.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  [at, id]: [StringReference<DB, TB>, StringReference<DB, TB>],
  after: TimeKey | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .$if(after !== undefined, (page) =>
      page.where(sql<boolean>`(${sql.ref(at)}, ${sql.ref(id)}) < (${after!.at}, ${after!.id})`),
    )
    .orderBy(at, "desc")
    .orderBy(id, "desc")
    .limit(limit + 1);
}
