import { randomBytes, randomInt } from "node:crypto";
import type { Processor } from "../../domain/host-configurations/schemas.ts";

const alphanumerics = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export const newAuthorizationCode = () =>
  Array.from({ length: 6 }, () => alphanumerics[randomInt(alphanumerics.length)]).join("");

const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join("");

/** Each processor's own style of transaction reference. */
export function newReference(processor: Processor): string {
  switch (processor) {
    case "processor_a":
      return digits(12);
    case "processor_b":
      return `B${digits(15)}`;
    case "processor_c":
      return `${digits(6)}C${digits(3)}-${randomBytes(8).toString("hex").toUpperCase()}`;
    case "processor_d":
      return `pd_${randomBytes(12).toString("hex")}`;
  }
}
