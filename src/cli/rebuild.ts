import type { Projection } from "../projections/projection.ts";
import { rebuildProjection } from "../projections/rebuild.ts";
import type { Ledger } from "./connection.ts";
import { writeOut } from "./output.ts";
import { withProgress } from "./progress.ts";

/** Replays the log into a fresh copy of the read model and swaps it in; the service keeps serving meanwhile. */
export async function rebuild({ db, store }: Ledger, projection: Projection): Promise<number> {
  const { summary } = await withProgress(`rebuild ${projection.name}`, store, (progress) =>
    rebuildProjection({ db, store, projection, onProgress: ({ events, position }) => progress.update(events, position) }),
  );
  await writeOut(`rebuilt ${projection.name}: ${summary}\n`);
  return 0;
}
