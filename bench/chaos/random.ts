import { createHash } from "node:crypto";
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** Seeded randomness: the same seed gives the same sequence, so a chaos run can be replayed. */
export interface Random {
  /** An integer in `min..max`, both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /**
   * An independent stream derived from this one's seed and `label` only: it does not depend on
   * how much of this stream was used, so each virtual user's stream is the same in every replay.
   */
  fork(label: string): Random;
  /** A UUID of version 4's shape, drawn from the stream. */
  uuid(): string;
}

export function createRandom(seed: number): Random {
  const generator = xoroshiro128plus(seed);
  const random: Random = {
    int: (min, max) => uniformInt(generator, min, max),
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error("pick from an empty list");
      return items[uniformInt(generator, 0, items.length - 1)] as T;
    },
    chance: (p) => uniformFloat64(generator) < p,
    fork: (label) => createRandom(forkSeed(seed, label)),
    uuid: () => uuidFrom(Array.from({ length: 16 }, () => uniformInt(generator, 0, 255))),
  };
  return random;
}

/** A 32-bit seed that mixes every bit of the parent seed and the label. */
function forkSeed(seed: number, label: string): number {
  return createHash("sha256").update(`${seed}:${label}`).digest().readInt32BE(0);
}

function uuidFrom(bytes: number[]): string {
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
