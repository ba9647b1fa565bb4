import { once } from "node:events";

/** Writes to stdout, waiting while its buffer is full, so a long export never piles up in memory. */
export async function writeOut(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, "drain");
}

/** Diagnostics and progress go to stderr, so stdout stays the command's result alone. */
export function writeErr(text: string): void {
  process.stderr.write(text);
}

/** "1 event", "2 events". */
export const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * Colours only for a person at a terminal who has not asked for none (no-color.org): a pipe, a
 * file or NO_COLOR gets plain text, with no escape codes to strip.
 */
export const usesColour = (stream: { isTTY?: boolean }, environment: Record<string, string | undefined>): boolean =>
  stream.isTTY === true && !environment.NO_COLOR;
