import { describe, expect, it } from "vitest";
import { fromDecimalAmount, toDecimalAmount } from "../../src/processors/decimal-amount.ts";

describe("decimal amounts", () => {
  it.each([
    [1099, "USD", "10.99"],
    [5, "USD", "0.05"],
    [500, "JPY", "500"],
    [1099, "BHD", "1.099"],
    [9007199254740991, "USD", "90071992547409.91"],
  ])("%i %s is %s and back", (minor, currency, decimal) => {
    expect(toDecimalAmount(minor, currency)).toBe(decimal);
    expect(fromDecimalAmount(decimal, currency)).toBe(minor);
  });

  it.each([
    ["10.9", "USD"],
    ["10", "USD"],
    ["5.00", "JPY"],
    ["-1.00", "USD"],
    ["1e3", "USD"],
  ])("rejects %s %s", (text, currency) => {
    expect(fromDecimalAmount(text, currency)).toBeUndefined();
  });
});
