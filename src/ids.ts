import { v7 } from "uuid";

/** Time-ordered UUIDs (v7), so ids sort by creation. */
export const newId = (): string => v7();
